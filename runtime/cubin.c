/* cubin.c - a cubin's code digest (cubin.h).
 *
 * The layout read is ELF64's (section headers) and the CUDA ELF's attribute records in
 * .nv.info sections: each record is a format byte, an attribute byte and two bytes that
 * are either the value (EIFMT_NVAL 1, EIFMT_BVAL 2, EIFMT_HVAL 3) or the length of the
 * value that follows (EIFMT_SVAL 4). Everything is bounds-checked: the bytes may come
 * from a cache entry whose checksum passed but whose producer is not ours. */
#include <string.h>
#include <xxhash.h>

#include "cubin.h"

enum {
    ELF_SHOFF = 0x28,
    ELF_SHENTSIZE = 0x3a,
    ELF_SHNUM = 0x3c,
    ELF_SHSTRNDX = 0x3e,
    ELF_HEADER = 0x40,
    SH_SIZE = 64,
    SHT_NOBITS = 8,
    EIFMT_NVAL = 1,
    EIFMT_SVAL = 4,
    EIATTR_MAXREG_COUNT = 0x1b,
};

static uint16_t u16(const unsigned char *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}
static uint32_t u32(const unsigned char *p)
{
    return (uint32_t)u16(p) | (uint32_t)u16(p + 2) << 16;
}
static uint64_t u64(const unsigned char *p)
{
    return (uint64_t)u32(p) | (uint64_t)u32(p + 4) << 32;
}

/* Whether [off, off + len) lies inside a buffer of `size` bytes. */
static int inside(uint64_t off, uint64_t len, size_t size)
{
    return off <= size && len <= size - off;
}

/* Hashes an .nv.info section's records, all but EIATTR_MAXREG_COUNT. 0, or -1 when a
 * record runs past the section or has an unknown format. */
static int hash_info(XXH3_state_t *h, const unsigned char *p, uint64_t len)
{
    uint64_t at = 0;
    while (at < len) {
        if (len - at < 4)
            return -1;
        unsigned fmt = p[at], attr = p[at + 1];
        uint64_t n = 4;
        if (fmt == EIFMT_SVAL)
            n += u16(p + at + 2);
        else if (fmt < EIFMT_NVAL || fmt > EIFMT_SVAL)
            return -1;
        if (n > len - at)
            return -1;
        if (attr != EIATTR_MAXREG_COUNT)
            XXH3_128bits_update(h, p + at, (size_t)n);
        at += n;
    }
    return 0;
}

int cubin_code_digest(const unsigned char *cubin, size_t size, cubin_digest *out)
{
    if (!cubin || size < ELF_HEADER ||
        memcmp(cubin,
               "\x7f"
               "ELF\x02\x01",
               6) != 0)
        return -1;
    uint64_t shoff = u64(cubin + ELF_SHOFF);
    unsigned entsize = u16(cubin + ELF_SHENTSIZE), shnum = u16(cubin + ELF_SHNUM), strndx = u16(cubin + ELF_SHSTRNDX);
    if (entsize < SH_SIZE || strndx >= shnum || !inside(shoff, (uint64_t)shnum * entsize, size))
        return -1;
    const unsigned char *strsec = cubin + shoff + (uint64_t)strndx * entsize;
    uint64_t stroff = u64(strsec + 24), strsize = u64(strsec + 32);
    if (!inside(stroff, strsize, size) || strsize == 0 || cubin[stroff + strsize - 1] != '\0')
        return -1;
    XXH3_state_t *h = XXH3_createState();
    if (!h || XXH3_128bits_reset(h) != XXH_OK) {
        XXH3_freeState(h);
        return -1;
    }
    int rc = 0;
    for (unsigned i = 0; i < shnum && rc == 0; i++) {
        const unsigned char *s = cubin + shoff + (uint64_t)i * entsize;
        uint32_t name = u32(s), type = u32(s + 4);
        uint64_t off = u64(s + 24), len = u64(s + 32);
        if (name >= strsize) {
            rc = -1;
            break;
        }
        const char *nm = (const char *)cubin + stroff + name; /* NUL-terminated: checked above */
        if (strcmp(nm, ".note.nv.tkinfo") == 0)
            continue;
        /* name, type, flags (with the register count on .text sections), info, link */
        XXH3_128bits_update(h, nm, strlen(nm) + 1);
        XXH3_128bits_update(h, s + 4, 12);
        XXH3_128bits_update(h, s + 40, 8);
        XXH3_128bits_update(h, s + 32, 8);
        if (type == SHT_NOBITS || len == 0)
            continue;
        if (!inside(off, len, size))
            rc = -1;
        else if (strncmp(nm, ".nv.info", 8) == 0)
            rc = hash_info(h, cubin + off, len);
        else
            XXH3_128bits_update(h, cubin + off, (size_t)len);
    }
    if (rc == 0) {
        XXH128_hash_t d = XXH3_128bits_digest(h);
        out->lo = d.low64;
        out->hi = d.high64;
    }
    XXH3_freeState(h);
    return rc;
}
