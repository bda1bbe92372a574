/* replay.c - runs the fuzz target over saved inputs (the corpus and the inputs that
 * once crashed or hung it) with an ordinary compiler: a regression test in every build,
 * the sanitizer build included. Usage: replay DIR... (exit 1 if an input cannot be read). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sys.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    long files = 0;
    for (int i = 1; i < argc; i++) {
        DIR *d = opendir(argv[i]);
        if (!d) {
            fprintf(stderr, "replay: cannot open %s\n", argv[i]);
            return 1;
        }
        struct dirent *e;
        while ((e = readdir(d))) {
            if (e->d_name[0] == '.')
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
            size_t len;
            char *data = sys_read_file(path, SYS_LIMIT_SOURCE, &len);
            if (!data) {
                fprintf(stderr, "replay: cannot read %s\n", path);
                closedir(d);
                return 1;
            }
            LLVMFuzzerTestOneInput((const uint8_t *)data, len);
            free(data);
            files++;
        }
        closedir(d);
    }
    printf("replayed %ld inputs\n", files);
    return files > 0 ? 0 : 1;
}
