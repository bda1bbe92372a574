/* csv.h - the one CSV field writer (RFC 4180) and the one shortest-number formatter.
 * csv_field is the CSV escaper of base/escape.h's set: every text that reaches a CSV
 * table goes through it.
 *
 * A field is quoted only when it holds a comma, a double quote, a carriage return or a
 * line feed; a quote inside is doubled. Rows end with CRLF (the caller writes it).
 *
 * Formula injection: a field a spreadsheet would run as a formula (it starts with '=',
 * '+', '@', a tab or a carriage return, or with '-' and holds one of ( ) | ! [ ] { } @ ;
 * or a line break, which a harmful formula needs) is written with a leading apostrophe,
 * the spreadsheets' mark for "text". Numbers and compiler options (-5, -DTILE=8) are
 * untouched; a program reading such a field back drops that one leading apostrophe. */
#ifndef CUTUNE_BASE_CSV_H
#define CUTUNE_BASE_CSV_H

#include <stddef.h>

#include "strbuf.h"

/* csv_field: appends s to o as one CSV field, quoted when needed (RFC 4180), with a
 * leading apostrophe when a spreadsheet would read it as a formula (above). */
void csv_field(strbuf *o, const char *s);

/* csv_joined: appends the n items joined by single spaces as one CSV field. */
void csv_joined(strbuf *o, const char *const *items, int n);

/* csv_number: appends d in the shortest form that reads back equal; nothing when d is
 * not finite (an empty field). */
void csv_number(strbuf *o, double d);

/* csv_shortest: writes into buf (size bytes, at least 32) the shortest "%.*g" text of d
 * that strtod reads back as d; returns buf. */
char *csv_shortest(double d, char *buf, size_t size);

#endif
