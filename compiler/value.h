/* value.h - the values a spec computes with: 64-bit integers, doubles, booleans and
 * strings. Strings point into an arena (never owned by the value). */
#ifndef CUTUNE_COMPILER_VALUE_H
#define CUTUNE_COMPILER_VALUE_H

#include <stdbool.h>
#include <stdint.h>

#include "../base/strbuf.h"

typedef enum vtype { VT_INT, VT_FLOAT, VT_BOOL, VT_STRING, VT_ERROR } vtype;

typedef struct value {
    vtype type;
    union {
        int64_t i;
        double f;
        bool b;
        const char *s;
    } u;
} value;

/* vtype_name: "int", "float", "bool", "string" (and "<error>"). */
const char *vtype_name(vtype t);

/* value_int / value_float / value_bool / value_string: make a value. */
value value_int(int64_t i);
value value_float(double f);
value value_bool(bool b);
value value_string(const char *s);

/* value_equal: same type and same contents (floats compared exactly). */
bool value_equal(value a, value b);

/* value_mark_repeats: sets repeat[i] for every value of vals[0..n) that equals (by
 * value_equal) one before it, and clears it for the others; values of type VT_ERROR
 * are skipped (never a repeat, never repeated). Sorts a copy, so it takes O(n log n).
 * Returns 0, or -1 when out of memory. */
int value_mark_repeats(const value *vals, size_t n, bool *repeat);

/* value_as_double: an int or float as a double (0 for other types). */
double value_as_double(value v);

/* value_format: appends the value as the spec would write it for ints, floats and
 * bools ("32", "0.5", "true"); strings are appended raw when `quote` is false, else
 * in double quotes with escapes. Floats use the shortest text that reads back equal. */
void value_format(value v, strbuf *out, bool quote);

/* value_format_c: appends the value as C source: ints as decimal, floats in the
 * shortest form that reads back equal (0.1, not 0.10000000000000001), bools as 1/0
 * (as_bool_words: true/false), strings raw. */
void value_format_c(value v, strbuf *out, bool as_bool_words);

/* value_strip_separators: `text` without the '_' a spec may write between digits, into
 * buf (size bytes, always terminated; cut short when it does not fit). */
void value_strip_separators(const char *text, char *buf, size_t size);

#endif
