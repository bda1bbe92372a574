/* fuzz_journal.c - libFuzzer target for the journal reader (results/journal.c), with its
 * promise checked on every input, not only the absence of crashes: the input is a
 * journal opened for resuming a run of a fixed identity over a space of 1,000
 * configurations, and afterwards the file must be
 *  - unchanged, when the open was refused (another format, version or identity);
 *  - the input cut after its last newline, when the input has a whole first line: only
 *    a torn last line is ever dropped (damage in the middle, NUL bytes included, stays);
 *  - a fresh header, when the input has no newline (empty, or a torn header);
 * and every record read back is an index below 1,000 that journal_find finds, with no
 * more records and ignored lines than the input has lines after the header. Build with
 * -DCUTUNE_FUZZ=ON (clang); see docs/fuzzing.md. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/sys.h"
#include "results/journal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The scratch folder, made once per process (each fuzzing worker has its own). */
static const char *scratch(void)
{
    static char dir[64];
    if (!dir[0]) {
        const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        snprintf(dir, sizeof dir, "%s/cutune-fuzz-journal-XXXXXX", base);
        if (!mkdtemp(dir))
            abort();
    }
    return dir;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[256];
    snprintf(path, sizeof path, "%s/j.journal", scratch());
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0)
        abort();
    json_t *identity = json_pack("{s:s, s:s}", "spec", "0123456789abcdef", "device", "fuzz");
    if (!identity)
        abort();
    journal *j = NULL;
    int rc = journal_open(&j, path, identity, 1000, false);
    size_t lines = 0, whole = 0; /* newlines in the input; bytes up to and with the last */
    for (size_t i = 0; i < size; i++)
        if (data[i] == '\n') {
            lines++;
            whole = i + 1;
        }
    if (rc == 0) {
        if (journal_count(j) + journal_ignored(j) > (lines ? lines - 1 : 0))
            abort(); /* more records than lines */
        for (uint64_t i = 0; i < journal_count(j); i++) {
            uint64_t ordinal = 1000;
            if (!journal_at(j, i, &ordinal) || ordinal >= 1000 || !journal_find(j, ordinal))
                abort();
        }
        if ((journal_ignored(j) > 0) != (journal_ignored_why(j)[0] != '\0'))
            abort(); /* ignored lines without a reason, or a reason for none */
        journal_close(j);
    }
    size_t len = 0;
    char *after = sys_read_file(path, SYS_LIMIT_STORED, &len);
    if (!after)
        abort();
    if (rc != 0) {
        if (len != size || (size && memcmp(after, data, size) != 0))
            abort(); /* a refused file was changed */
    } else if (lines > 0) {
        if (len != whole || memcmp(after, data, whole) != 0)
            abort(); /* cut somewhere other than its torn tail */
    } else if (len == 0 || after[len - 1] != '\n' || memchr(after, '\n', len) != after + len - 1) {
        abort(); /* a torn header not replaced by one whole header line */
    }
    free(after);
    json_decref(identity);
    return 0;
}
