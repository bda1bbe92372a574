/* escape.c - one escaper per output language (see escape.h). */
#include "escape.h"

#include <string.h>

/* ---- C ------------------------------------------------------------------------------ */

/* A comment writer that knows the last character it wrote, so that no pair it forms
 * can close or open a comment or make a trigraph. */
typedef struct comment_out {
    strbuf *out;
    char last;
} comment_out;

static void comment_put(comment_out *c, char ch)
{
    if ((c->last == '*' && ch == '/') || (c->last == '/' && ch == '*') || (c->last == '?' && ch == '?'))
        sb_addc(c->out, ' ');
    sb_addc(c->out, ch);
    c->last = ch;
}

static bool comment_edge(char ch)
{
    return ch == '*' || ch == '/' || ch == '?';
}

/* The character a byte of s is written as. */
static char comment_char(unsigned char c)
{
    return c == '\\' ? '/' : c < 0x20 || c >= 0x7f ? '?' : (char)c;
}

void esc_c_comment(strbuf *out, const char *s)
{
    comment_out c = {out, ' '};
    if (s[0] && comment_edge(comment_char((unsigned char)s[0])))
        sb_addc(out, ' ');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        comment_put(&c, comment_char(*p));
    if (s[0] && comment_edge(c.last))
        sb_addc(out, ' ');
}

void esc_c_string(strbuf *out, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': sb_add(out, "\\\""); break;
        case '\\': sb_add(out, "\\\\"); break;
        case '\n': sb_add(out, "\\n"); break;
        case '\t': sb_add(out, "\\t"); break;
        case '?': sb_add(out, "\\?"); break; /* never "??": no trigraph, whatever is around */
        default:
            if (*p < 0x20 || *p >= 0x7f)
                sb_printf(out, "\\%03o", *p); /* octal: never takes in the next character */
            else
                sb_addc(out, (char)*p);
        }
    }
}

bool esc_c_name(const char *s)
{
    if (!s || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
        return false;
    size_t n = 0;
    for (; *s; s++, n++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return false;
    return n <= ESC_NAME_MAX;
}

static const char *const c_keywords[] = {
    "alignas",
    "alignof",
    "and",
    "and_eq",
    "asm",
    "auto",
    "bitand",
    "bitor",
    "bool",
    "break",
    "case",
    "catch",
    "char",
    "char8_t",
    "char16_t",
    "char32_t",
    "class",
    "compl",
    "concept",
    "const",
    "consteval",
    "constexpr",
    "constinit",
    "const_cast",
    "continue",
    "co_await",
    "co_return",
    "co_yield",
    "decltype",
    "default",
    "delete",
    "do",
    "double",
    "dynamic_cast",
    "else",
    "enum",
    "explicit",
    "export",
    "extern",
    "false",
    "float",
    "for",
    "friend",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "mutable",
    "namespace",
    "new",
    "noexcept",
    "not",
    "not_eq",
    "nullptr",
    "operator",
    "or",
    "or_eq",
    "private",
    "protected",
    "public",
    "register",
    "reinterpret_cast",
    "requires",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "static_assert",
    "static_cast",
    "struct",
    "switch",
    "template",
    "this",
    "thread_local",
    "throw",
    "true",
    "try",
    "typedef",
    "typeid",
    "typename",
    "union",
    "unsigned",
    "using",
    "virtual",
    "void",
    "volatile",
    "wchar_t",
    "while",
    "xor",
    "xor_eq",
    "_Alignas",
    "_Alignof",
    "_Atomic",
    "_Bool",
    "_Complex",
    "_Generic",
    "_Imaginary",
    "_Noreturn",
    "_Static_assert",
    "_Thread_local",
};

bool esc_c_keyword(const char *s)
{
    for (size_t i = 0; s && i < sizeof c_keywords / sizeof *c_keywords; i++)
        if (strcmp(c_keywords[i], s) == 0)
            return true;
    return false;
}

bool esc_c_ident(const char *s)
{
    return esc_c_name(s) && !esc_c_keyword(s);
}

/* ---- HTML ----------------------------------------------------------------------------- */

static void html(strbuf *out, const char *s, bool attr)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '&': sb_add(out, "&amp;"); break;
        case '<': sb_add(out, "&lt;"); break;
        case '>': sb_add(out, "&gt;"); break;
        case '"': sb_add(out, "&quot;"); break;
        case '\'': sb_add(out, "&#39;"); break;
        case '\t':
        case '\n':
        case '\r':
            if (attr)
                sb_printf(out, "&#%d;", *p);
            else
                sb_addc(out, (char)*p);
            break;
        default:
            if (*p < 0x20 || *p == 0x7f)
                sb_add(out, "&#xFFFD;");
            else
                sb_addc(out, (char)*p);
        }
    }
}

void esc_html_text(strbuf *out, const char *s)
{
    html(out, s, false);
}

void esc_html_attr(strbuf *out, const char *s)
{
    html(out, s, true);
}
