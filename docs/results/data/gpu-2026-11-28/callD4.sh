# Call D4 ran callD2.sh as it is, its set-up named D4 (smi-D4.txt):
#   sed 's/setup.sh D2/setup.sh D4/' callD2.sh > .devrun/D4.sh
