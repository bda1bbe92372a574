/* kt_file.c - a Kernel Tuner recording's bytes into JSON (see kt.h): read through the
 * one file reader, gunzipped when it starts with gzip's magic bytes, parsed with
 * duplicate keys refused, and an unclosed cache file closed as Kernel Tuner closes it.
 *
 * gzip is read with zlib (inflate with a gzip header, member after member): the hub
 * ships its caches and T4 files as .json.gz, and a user should not have to gunzip a
 * recording before importing it. A damaged stream (a bad CRC, a truncated file, bytes
 * after the last member that are not another member) is refused, never imported in
 * part; what it decompresses to is bounded, so a small file cannot demand gigabytes. */
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "../base/err.h"
#include "../base/sys.h"
#include "kt.h"

/* gzip's two magic bytes (RFC 1952). */
static bool is_gzip(const char *data, size_t len)
{
    return len >= 2 && (unsigned char)data[0] == 0x1f && (unsigned char)data[1] == 0x8b;
}

int kt_inflate(char **out, size_t *out_len, bool *plain, const char *data, size_t len, size_t limit, const char *name)
{
    *out = NULL;
    *out_len = 0;
    *plain = !is_gzip(data, len);
    if (*plain)
        return CUTUNE_OK;
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) /* 16: a gzip header and trailer */
        return err_set(CUTUNE_ENOMEM, "%s: cannot start gunzip: out of memory", name);
    size_t cap = len * 4 + 4096, used = 0;
    char *buf = malloc(cap + 1);
    int rc = buf ? CUTUNE_OK : err_set(CUTUNE_ENOMEM, "%s: out of memory gunzipping it", name);
    z.next_in = (unsigned char *)(uintptr_t)data;
    size_t in_left = len;
    while (rc == CUTUNE_OK) {
        if (used == cap) {
            if (cap >= limit) {
                rc = err_set(CUTUNE_EIO, "%s: decompresses to more than %zu MiB: not a recording to import", name,
                             limit >> 20);
                break;
            }
            size_t grown = cap * 2 < limit ? cap * 2 : limit;
            char *more = realloc(buf, grown + 1);
            if (!more) {
                rc = err_set(CUTUNE_ENOMEM, "%s: out of memory gunzipping it", name);
                break;
            }
            buf = more;
            cap = grown;
        }
        uInt chunk_in = in_left > (1u << 30) ? (1u << 30) : (uInt)in_left;
        size_t room = cap - used;
        z.avail_in = chunk_in;
        z.next_out = (unsigned char *)buf + used;
        z.avail_out = room > (1u << 30) ? (1u << 30) : (uInt)room;
        uInt before_out = z.avail_out;
        int zr = inflate(&z, Z_NO_FLUSH);
        used += before_out - z.avail_out;
        in_left -= chunk_in - z.avail_in;
        if (zr == Z_STREAM_END) {
            if (in_left == 0)
                break;
            /* another member follows (gzip files may be concatenated), or trailing bytes */
            if (!is_gzip((const char *)z.next_in, in_left)) {
                rc = err_set(CUTUNE_EIO, "%s: %zu bytes after the end of the gzip stream that are not another member",
                             name, in_left);
                break;
            }
            if (inflateReset(&z) != Z_OK)
                rc = err_set(CUTUNE_EIO, "%s: cannot read the next gzip member", name);
            continue;
        }
        if (zr == Z_BUF_ERROR && in_left == 0 && z.avail_out > 0) {
            rc = err_set(CUTUNE_EIO, "%s: the gzip stream ends early (a truncated file): %zu bytes decompressed", name,
                         used);
            break;
        }
        if (zr != Z_OK && zr != Z_BUF_ERROR) {
            rc = err_set(CUTUNE_EIO, "%s: a damaged gzip stream: %s", name, z.msg ? z.msg : "inflate failed");
            break;
        }
    }
    inflateEnd(&z);
    if (rc != CUTUNE_OK) {
        free(buf);
        return rc;
    }
    buf[used] = '\0';
    *out = buf;
    *out_len = used;
    return CUTUNE_OK;
}

/* Kernel Tuner appends to a cache file as it tunes and closes it ("}\n}") at the end: a
 * run that was stopped leaves it open, its last entry followed by a comma. Kernel
 * Tuner reads such a file by dropping the comma and closing it; so does this (only
 * then: anything else that fails to parse is refused). Returns the closed text
 * (malloc'd), or NULL when `text` does not end that way. */
static char *closed_cache(const char *text, size_t len)
{
    while (len > 0 && (text[len - 1] == ' ' || text[len - 1] == '\n' || text[len - 1] == '\r' || text[len - 1] == '\t'))
        len--;
    if (len < 2 || text[len - 1] != ',' || text[len - 2] != '}')
        return NULL;
    char *closed = malloc(len + 3);
    if (closed) {
        memcpy(closed, text, len - 1);
        memcpy(closed + len - 1, "}\n}", 4);
    }
    return closed;
}

int kt_read_json(json_t **root, bool *gzipped, bool *reopened, const char *path)
{
    *root = NULL;
    *gzipped = *reopened = false;
    size_t len = 0;
    char *raw = sys_read_file(path, KT_INFLATE_LIMIT, &len);
    if (!raw)
        return err_set(errno == ENOMEM ? CUTUNE_ENOMEM : CUTUNE_EIO, "cannot read '%s': %s", path, sys_strerror(errno));
    char *text = NULL;
    size_t text_len = 0;
    bool plain = true;
    int rc = kt_inflate(&text, &text_len, &plain, raw, len, KT_INFLATE_LIMIT, path);
    if (rc != CUTUNE_OK) {
        free(raw);
        return rc;
    }
    if (plain) {
        text = raw;
        text_len = len;
    } else {
        free(raw);
    }
    *gzipped = !plain;
    json_error_t jerr;
    *root = json_loadb(text, text_len, JSON_REJECT_DUPLICATES, &jerr);
    if (!*root) {
        char *closed = closed_cache(text, text_len);
        json_error_t again;
        if (closed && (*root = json_loadb(closed, strlen(closed), JSON_REJECT_DUPLICATES, &again)) != NULL)
            *reopened = true;
        free(closed);
    }
    free(text);
    if (!*root)
        return err_set(CUTUNE_EIO, "%s: not JSON%s: line %d, column %d: %s", path, *gzipped ? " (once gunzipped)" : "",
                       jerr.line, jerr.column, jerr.text);
    return CUTUNE_OK;
}
