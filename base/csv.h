/* csv.h - the one CSV field writer (RFC 4180) and the one shortest-number formatter.
 *
 * A field is quoted only when it holds a comma, a double quote, a carriage return or a
 * line feed; a quote inside is doubled. Rows end with CRLF (the caller writes it). */
#ifndef CUTUNE_BASE_CSV_H
#define CUTUNE_BASE_CSV_H

#include <stddef.h>

#include "strbuf.h"

/* csv_field: appends s to o as one CSV field, quoted when needed (RFC 4180). */
void csv_field(strbuf *o, const char *s);

/* csv_joined: appends the n items joined by single spaces as one CSV field. */
void csv_joined(strbuf *o, const char *const *items, int n);

/* csv_number: appends d in the shortest form that reads back equal; nothing when d is
 * not finite (an empty field). */
void csv_number(strbuf *o, double d);

/* num_shortest: writes into buf (size bytes, at least 32) the shortest "%.*g" text of d
 * that strtod reads back as d; returns buf. */
char *num_shortest(double d, char *buf, size_t size);

#endif
