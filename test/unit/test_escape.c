/* test_escape.c - the escapers of base/escape.h and the CSV one (base/csv.h): hostile text
 * (comment ends and starts, trigraphs, line splices, quotes, control bytes, markup,
 * spreadsheet formulas) written so that it stays inside its context, checked on fixed
 * cases written by hand and on random strings by properties (a comment opens and closes
 * exactly once; a string literal decodes back to the bytes it was made of). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/csv.h"
#include "base/escape.h"

static char *comment(const char *s)
{
    strbuf o = STRBUF_INIT;
    esc_c_comment(&o, s);
    return sb_steal(&o);
}

static char *cstring(const char *s)
{
    strbuf o = STRBUF_INIT;
    esc_c_string(&o, s);
    return sb_steal(&o);
}

#define EXPECT(fn, in, want) \
    do { \
        char *got_ = fn(in); \
        assert_string_equal(got_, want); \
        free(got_); \
    } while (0)

static void test_comment_fixed(void **state)
{
    (void)state;
    EXPECT(comment, "plain text", "plain text");
    EXPECT(comment, "", "");
    EXPECT(comment, "a*/b", "a* /b");
    EXPECT(comment, "a/*b", "a/ *b");
    EXPECT(comment, "a/*/b", "a/ * /b"); /* the injection of the review */
    EXPECT(comment, "*/", " * / ");      /* an end at either edge is kept apart */
    EXPECT(comment, "/", " / ");
    EXPECT(comment, "x*", "x* ");
    EXPECT(comment,
           "what?"
           "?/",
           "what? ?/ ");           /* no trigraph, no splice */
    EXPECT(comment, "a\\", "a/ "); /* a backslash would splice lines */
    EXPECT(comment, "two\nlines\r", "two?lines? ");
}

/* Bytes replaced by '?' are kept apart like any other: no "??" from them. */
static void test_comment_replaced_pair(void **state)
{
    (void)state;
    EXPECT(comment, "caf\xc3\xa9", "caf? ? ");
    EXPECT(comment, "\x01\x02", " ? ? ");
}

/* Whether text holds a comment start or end, or a trigraph, or a backslash. */
static bool dangerous(const char *t)
{
    return strstr(t, "*/") || strstr(t, "/*") || strstr(t, "??") || strchr(t, '\\') || strchr(t, '\n');
}

/* Random strings over the characters that matter, each put between every pair of
 * neighbours a comment's text can have: no comment end or start, no trigraph, in the
 * text or at the joins. */
static void test_comment_random(void **state)
{
    (void)state;
    static const char alphabet[] = "*/?\\\n\"a /**/\x80";
    static const char *const around[] = {"*", "/", "?", " ", ""};
    srand(7);
    for (int round = 0; round < 20000; round++) {
        char s[16];
        int n = 1 + rand() % 14;
        for (int i = 0; i < n; i++)
            s[i] = alphabet[rand() % (int)(sizeof alphabet - 1)];
        s[n] = '\0';
        char *e = comment(s);
        for (size_t b = 0; b < sizeof around / sizeof *around; b++)
            for (size_t a = 0; a < sizeof around / sizeof *around; a++) {
                char joined[128];
                snprintf(joined, sizeof joined, "%s%s%s", around[b], e, around[a]);
                if (dangerous(joined))
                    fail_msg("'%s' written as '%s' makes '%s'", s, e, joined);
            }
        free(e);
    }
}

/* Decodes a C string literal's contents (the escapes esc_c_string writes); -1 on an
 * escape it does not know. */
static int decode(const char *t, char *out, size_t size)
{
    size_t n = 0;
    for (const char *p = t; *p; p++) {
        char c = *p;
        if (c == '"' || c == '\n')
            return -1; /* an unescaped quote or line ends the literal */
        if (c == '?' && (p[1] == '?' || p == t || p[1] == '\0'))
            return -1; /* a trigraph could start, here or with the text around */
        if (c == '\\') {
            p++;
            switch (*p) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case '"': c = '"'; break;
            case '\\': c = '\\'; break;
            case '?': c = '?'; break;
            default:
                if (p[0] >= '0' && p[0] <= '7' && p[1] >= '0' && p[1] <= '7' && p[2] >= '0' && p[2] <= '7') {
                    c = (char)((p[0] - '0') * 64 + (p[1] - '0') * 8 + (p[2] - '0'));
                    p += 2;
                } else {
                    return -1;
                }
            }
        }
        if (n + 1 >= size)
            return -1;
        out[n++] = c;
    }
    out[n] = '\0';
    return (int)n;
}

static void test_string_fixed(void **state)
{
    (void)state;
    EXPECT(cstring, "H100 80GB HBM3", "H100 80GB HBM3");
    EXPECT(cstring, "say \"hi\"\\", "say \\\"hi\\\"\\\\");
    EXPECT(cstring, "a\nb\tc\r", "a\\nb\\tc\\015");
    EXPECT(cstring,
           "?"
           "?=",
           "\\?\\?=");
    EXPECT(cstring, "why?", "why\\?");
    EXPECT(cstring,
           "a?"
           "?b",
           "a\\?\\?b");
    EXPECT(cstring,
           "\xff"
           "1",
           "\\3771"); /* octal takes three digits, never the 1 */
    EXPECT(cstring, "\"); system(\"x", "\\\"); system(\\\"x");
}

static void test_string_random(void **state)
{
    (void)state;
    srand(11);
    for (int round = 0; round < 20000; round++) {
        char s[24], back[24];
        int n = rand() % 23;
        for (int i = 0; i < n; i++) {
            int k = rand() % 8;
            s[i] = k == 0 ? '?' : k == 1 ? '"' : k == 2 ? '\\' : k == 3 ? (char)(1 + rand() % 255) : "a/*0"[k % 4];
        }
        s[n] = '\0';
        char *e = cstring(s);
        assert_int_equal(decode(e, back, sizeof back), (int)strlen(s));
        assert_string_equal(back, s);
        free(e);
    }
}

static void test_names(void **state)
{
    (void)state;
    assert_true(esc_c_name("block_x"));
    assert_true(esc_c_name("_x1"));
    assert_true(esc_c_name("class"));   /* a name by syntax... */
    assert_false(esc_c_ident("class")); /* ...but not as it is */
    assert_false(esc_c_ident("int"));
    assert_false(esc_c_ident("_Bool"));
    assert_true(esc_c_keyword("while"));
    assert_false(esc_c_keyword("block_x"));
    assert_true(esc_c_ident("block_x"));
    assert_false(esc_c_name(""));
    assert_false(esc_c_name(NULL));
    assert_false(esc_c_name("1x"));
    assert_false(esc_c_name("a/*/b"));
    assert_false(esc_c_name("a b"));
    assert_false(esc_c_name("a-b"));
    assert_false(esc_c_name("caf\xc3\xa9"));
    assert_false(esc_c_name("x\n#define y"));
    char longest[ESC_NAME_MAX + 2];
    memset(longest, 'a', sizeof longest);
    longest[ESC_NAME_MAX] = '\0';
    assert_true(esc_c_name(longest));
    longest[ESC_NAME_MAX] = 'a';
    longest[ESC_NAME_MAX + 1] = '\0';
    assert_false(esc_c_name(longest));
}

static void test_html(void **state)
{
    (void)state;
    strbuf o = STRBUF_INIT;
    esc_html_text(&o, "<script>alert('x')</script> & \"q\"\n\x01");
    assert_string_equal(sb_cstr(&o), "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;\n&#xFFFD;");
    sb_reset(&o);
    esc_html_attr(&o, "a\" onload=\"x\"\t\n");
    assert_string_equal(sb_cstr(&o), "a&quot; onload=&quot;x&quot;&#9;&#10;");
    sb_free(&o);
}

static void test_csv_formulas(void **state)
{
    (void)state;
    strbuf o = STRBUF_INIT;
    static const char *const cases[][2] = {
        {"=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"},
        {"+1+1", "'+1+1"},
        {"@SUM(A1)", "'@SUM(A1)"},
        {"\tx", "'\tx"},
        {"\rx", "\"'\rx\""},
        {"-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"},
        {"-HYPERLINK(\"http://x\")", "\"'-HYPERLINK(\"\"http://x\"\")\""},
        {"=1,2", "\"'=1,2\""},
        {"-5", "-5"},
        {"-1.5e-3", "-1.5e-3"},
        {"--maxrregcount=64", "--maxrregcount=64"},
        {"-DTILE_Y=8 -DNAME=\"x\"", "\"-DTILE_Y=8 -DNAME=\"\"x\"\"\""},
        {"a=b", "a=b"},
        {"", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        sb_reset(&o);
        csv_field(&o, cases[i][0]);
        assert_string_equal(sb_cstr(&o), cases[i][1]);
    }
    sb_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_comment_fixed),  cmocka_unit_test(test_comment_replaced_pair),
        cmocka_unit_test(test_comment_random), cmocka_unit_test(test_string_fixed),
        cmocka_unit_test(test_string_random),  cmocka_unit_test(test_names),
        cmocka_unit_test(test_html),           cmocka_unit_test(test_csv_formulas),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
