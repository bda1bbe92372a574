/* escape.h - one escaper per output language. Every string that reaches a generated file
 * (a C header, a CSV table, an HTML page) comes from data cutune does not control: a
 * results file may have been shared, downloaded or edited. Each writer appends to a
 * strbuf and is safe whatever the text holds and whatever surrounds it in the output.
 *
 *   C comment (text inside slash-star ... star-slash)    esc_c_comment
 *   C string literal (its contents, between the quotes)  esc_c_string
 *   C identifier (not escaped: checked, then refused)    esc_c_name, esc_c_ident
 *   HTML text (between tags)                             esc_html_text
 *   HTML attribute value (inside double quotes)          esc_html_attr
 *   CSV field (RFC 4180, formula-safe)                   csv_field (base/csv.h)
 *
 * An identifier is never escaped into another one (two names could then meet): a name
 * that is not one is refused where it is read (results/load.c, the checker). */
#ifndef CUTUNE_BASE_ESCAPE_H
#define CUTUNE_BASE_ESCAPE_H

#include <stdbool.h>

#include "strbuf.h"

/* The longest name esc_c_name accepts, in bytes. */
#define ESC_NAME_MAX 255

/* esc_c_comment: appends s as text that can sit anywhere inside a C comment and never
 * ends it, starts another or changes the next line: a star followed by a slash and a
 * slash followed by a star get a space between; a star or slash at either end of s gets
 * a space outside it (so the text around cannot pair with it); '??' (a trigraph) gets a
 * space between; a backslash (a line splice) becomes '/'; control characters and bytes
 * outside ASCII become '?'. */
void esc_c_comment(strbuf *out, const char *s);

/* esc_c_string: appends s as the contents of a C string literal (the caller writes the
 * quotes): quote and backslash escaped, \n and \t as such, other control characters and
 * bytes outside ASCII as three-digit octal escapes (which never take in the character
 * after them), and every '?' as \? (never two in a row: no trigraph, whatever is around).
 * The literal's bytes are s's. */
void esc_c_string(strbuf *out, const char *s);

/* esc_c_name: whether s is an identifier by C's syntax: a letter or '_', then letters,
 * digits and '_', 1 to ESC_NAME_MAX bytes (ASCII only). What a spec's names are. */
bool esc_c_name(const char *s);

/* esc_c_keyword: whether s is a keyword of C11 or C++ (then it cannot be used as a
 * name as it is: "int", "class", "_Bool" ...). */
bool esc_c_keyword(const char *s);

/* esc_c_ident: whether s can be written into C as a name as it is: esc_c_name and not
 * esc_c_keyword. */
bool esc_c_ident(const char *s);

/* esc_html_text: appends s as HTML text: & < > " ' as character references; control
 * characters other than tab, line feed and carriage return as U+FFFD (the page stays
 * well-formed). */
void esc_html_text(strbuf *out, const char *s);

/* esc_html_attr: appends s as the value of an attribute in double quotes (the caller
 * writes them): as esc_html_text, and tab, line feed and carriage return as character
 * references too, so the value is kept exactly. */
void esc_html_attr(strbuf *out, const char *s);

#endif
