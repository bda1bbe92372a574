# cutune_deps.cmake - the files a tuning result depends on: the spec, its kernel file and
# every file the kernel's #include lines reach. Used by cutune_add_tuning (configure
# time) and cutune_tuning_step.cmake (build time, for the depfile).

# _cutune_spec_dependencies(OUT ERROR CUTUNE SPEC SETS): sets OUT to the absolute paths of
# SPEC, its kernel file and the headers it includes, and ERROR to "" - or, when the spec
# does not load, OUT to SPEC alone and ERROR to cutune's diagnostics. When SPEC loads but
# holds several kernel blocks and ARGS name none, ERROR says to name one and ERROR_usage
# is set TRUE (the spec is fine; the call is not). SPEC must be
# absolute (cutune then reports absolute paths); SETS is a list of NAME=VALUE overrides;
# further arguments (--kernel NAME: one kernel block of a file of several) go to cutune.
# The include walk follows the compile cache's (runtime/cache.c): "x" from the including
# file's folder first, then the spec's `include` folders and the kernel's folder; <x>
# from the latter alone. Files that are not found there (the toolkit's, the system's)
# are not dependencies.
function(_cutune_spec_dependencies out_var error_var cutune spec sets)
  set(set_args "")
  foreach(s IN LISTS sets)
    list(APPEND set_args --set "${s}")
  endforeach()
  list(APPEND set_args ${ARGN})
  execute_process(COMMAND "${cutune}" check --format json --color never ${set_args} "${spec}"
                  OUTPUT_VARIABLE check_json ERROR_VARIABLE check_err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    set(${out_var} "${spec}" PARENT_SCOPE)
    set(${error_var} "${check_err}" PARENT_SCOPE)
    return()
  endif()
  # A file of several kernel blocks checks as an array, one object a block: the header is
  # one block's, so the caller must name it (KERNEL NAME) - say so, with the blocks' names.
  string(JSON check_type ERROR_VARIABLE json_error TYPE "${check_json}")
  if(check_type STREQUAL "ARRAY")
    string(JSON nblocks LENGTH "${check_json}")
    set(names "")
    math(EXPR last "${nblocks} - 1")
    foreach(i RANGE ${last})
      string(JSON name ERROR_VARIABLE json_error GET "${check_json}" ${i} kernel)
      list(APPEND names "${name}")
    endforeach()
    list(JOIN names ", " names)
    set(${out_var} "${spec}" PARENT_SCOPE)
    set(${error_var} "${spec} holds ${nblocks} kernel blocks (${names}): name the one this header is for with KERNEL NAME (a cutune_add_tuning call, and a header, per block)" PARENT_SCOPE)
    set(${error_var}_usage TRUE PARENT_SCOPE)
    return()
  endif()
  string(JSON kernel ERROR_VARIABLE json_error GET "${check_json}" kernel_file)
  if(json_error)
    set(${out_var} "${spec}" PARENT_SCOPE)
    set(${error_var} "cutune check --format json gave no kernel_file: ${json_error}" PARENT_SCOPE)
    return()
  endif()
  # The spec's include folders reach every variant as -I options (cutune list).
  get_filename_component(kernel_dir "${kernel}" DIRECTORY)
  set(dirs "")
  execute_process(COMMAND "${cutune}" list --format json --limit 1 --color never ${set_args} "${spec}"
                  OUTPUT_VARIABLE list_json ERROR_QUIET RESULT_VARIABLE rc)
  if(rc EQUAL 0)
    string(JSON noptions ERROR_VARIABLE json_error LENGTH "${list_json}" 0 options)
    if(NOT json_error AND noptions GREATER 0)
      math(EXPR last "${noptions} - 1")
      foreach(i RANGE ${last})
        string(JSON option GET "${list_json}" 0 options ${i})
        if(option MATCHES "^-I(.+)$")
          list(APPEND dirs "${CMAKE_MATCH_1}")
        endif()
      endforeach()
    endif()
  endif()
  list(APPEND dirs "${kernel_dir}")

  set(found "${kernel}")
  set(queue "${kernel}")
  while(queue)
    list(POP_FRONT queue file)
    get_filename_component(file_dir "${file}" DIRECTORY)
    file(STRINGS "${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<][^\">]+[\">]")
    foreach(line IN LISTS lines)
      if(NOT line MATCHES "^[ \t]*#[ \t]*include[ \t]*([\"<])([^\">]+)[\">]")
        continue()
      endif()
      set(name "${CMAKE_MATCH_2}")
      set(candidates "")
      if(CMAKE_MATCH_1 STREQUAL "\"")
        list(APPEND candidates "${file_dir}")
      endif()
      list(APPEND candidates ${dirs})
      foreach(dir IN LISTS candidates)
        if(EXISTS "${dir}/${name}" AND NOT IS_DIRECTORY "${dir}/${name}")
          get_filename_component(path "${dir}/${name}" REALPATH)
          if(NOT path IN_LIST found)
            list(APPEND found "${path}")
            list(APPEND queue "${path}")
          endif()
          break()
        endif()
      endforeach()
    endforeach()
  endwhile()
  set(${out_var} "${spec};${found}" PARENT_SCOPE)
  set(${error_var} "" PARENT_SCOPE)
endfunction()
