/* num.h - the one reader per kind of number (prefix num_): an integer in a range, a
 * count, a finite decimal, for every number read from a command line or the environment.
 * A number is what it looks like or it is refused: the whole text, decimal, no leading
 * blanks or '+', no hex, no "inf" or "nan", nothing after it (but where the caller asks
 * for the rest), and out of its range is refused, never saturated or wrapped (strtoull
 * would read 2^64 as 2^64 - 1, and "-1" as 2^64 - 1). They print nothing and set no
 * error object: false is the whole answer. */
#ifndef CUTUNE_BASE_NUM_H
#define CUTUNE_BASE_NUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* num_read_int: [-]digits from min to max into *out. num_read_uint: digits, at most max.
 * num_read_double: a finite [-]digits[.digits][e[+-]digits] (or [-].digits...); with
 * `rest` NULL the whole text, else what follows the number goes to *rest (for suffixes:
 * "90s", "5%"). true when read (*out set), false otherwise (*out untouched); text NULL:
 * false. */
bool num_read_int(const char *text, long long min, long long max, long long *out);
bool num_read_uint(const char *text, uint64_t max, uint64_t *out);
bool num_read_double(const char *text, const char **rest, double *out);

/* num_read_list: a list of integers from min to max (both within int's range), each as
 * num_read_int reads it and at most 23 characters, separated by single commas ("0,1,3";
 * not "", ",1", "0," or "0,,1"), into out[0 .. *n), at most `size` of them (more is
 * refused). true when read; false otherwise, with *n 0. */
bool num_read_list(const char *text, long long min, long long max, int *out, int size, int *n);

/* num_format_count: n with a comma between each three digits ("22,200,000") into buf
 * (`size` bytes, cut short when too small); returns buf. */
const char *num_format_count(uint64_t n, char *buf, size_t size);

#endif
