/* Tiny assertion helpers and file/process utilities shared by the C99
 * clients of libreapi_cli (reapi_c_test.c, reapi_thread_test.c). Plain C99
 * plus POSIX popen: these programs are compiled as C, exactly as an
 * embedder's C code would be. The helpers are static inline: a program
 * that uses only some of them gets no unused-function warning. */
#ifndef REAPI_TEST_CHECK_H
#define REAPI_TEST_CHECK_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Defined once per program (by the file with main). */
extern int check_failures;
extern int check_count;

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        check_count++;                                                     \
        if (!(cond)) {                                                     \
            check_failures++;                                              \
            fprintf (stderr, "%s:%d: FAIL (%s): ", __FILE__, __LINE__,     \
                     #cond);                                               \
            fprintf (stderr, __VA_ARGS__);                                 \
            fputc ('\n', stderr);                                          \
        }                                                                  \
    } while (0)

/* rc == -1 and errno == want, with the errno read right after the call. */
#define CHECK_ERRNO(rc, err, want, what)                                   \
    CHECK ((rc) == -1 && (err) == (want), "%s: rc %d errno %d (%s), want %s", \
           (what), (int)(rc), (err), strerror (err), #want)

/* The whole file as a malloc'd NUL-terminated string (NULL on error). */
static inline char *slurp (const char *path)
{
    FILE *f = fopen (path, "rb");
    char *buf = NULL;
    size_t len = 0, cap = 0, n;
    if (!f) {
        fprintf (stderr, "cannot open %s: %s\n", path, strerror (errno));
        return NULL;
    }
    do {
        if (cap - len < 4096) {
            char *nb = realloc (buf, cap = cap * 2 + 4096);
            if (!nb) { free (buf); fclose (f); return NULL; }
            buf = nb;
        }
        n = fread (buf + len, 1, cap - len - 1, f);
        len += n;
    } while (n > 0);
    buf[len] = '\0';
    fclose (f);
    return buf;
}

/* Everything a shell command writes on stdout, malloc'd. */
static inline char *run_capture (const char *cmd)
{
    FILE *p = popen (cmd, "r");
    char *buf = NULL;
    size_t len = 0, cap = 0, n;
    if (!p)
        return NULL;
    do {
        if (cap - len < 4096) {
            char *nb = realloc (buf, cap = cap * 2 + 4096);
            if (!nb) { free (buf); pclose (p); return NULL; }
            buf = nb;
        }
        n = fread (buf + len, 1, cap - len - 1, p);
        len += n;
    } while (n > 0);
    buf[len] = '\0';
    pclose (p);
    return buf;
}

/* A malloc'd copy of the parts of a string that are outside JSON string
 * literals, with blanks removed: "{"a": 1}" and "{"a":1}" compare equal. */
static inline char *json_squeeze (const char *s)
{
    char *out = malloc (strlen (s) + 1), *o = out;
    int in_str = 0;
    for (; *s; s++) {
        if (in_str) {
            *o++ = *s;
            if (*s == '\\' && s[1])
                *o++ = *++s;
            else if (*s == '"')
                in_str = 0;
        } else if (*s == '"') {
            in_str = 1;
            *o++ = *s;
        } else if (*s != ' ' && *s != '\n' && *s != '\t') {
            *o++ = *s;
        }
    }
    *o = '\0';
    return out;
}

/* Append src to the malloc'd *dst. */
static inline void append (char **dst, const char *src)
{
    size_t a = *dst ? strlen (*dst) : 0, b = strlen (src);
    char *n = realloc (*dst, a + b + 1);
    if (!n)
        abort ();
    memcpy (n + a, src, b + 1);
    *dst = n;
}

/* The stdout lines that do not start with "INFO:" (the writer output). */
static inline char *drop_info_lines (const char *s)
{
    char *out = malloc (strlen (s) + 1), *o = out;
    while (*s) {
        const char *eol = strchr (s, '\n');
        size_t n = eol ? (size_t)(eol - s + 1) : strlen (s);
        if (strncmp (s, "INFO:", 5) != 0) {
            memcpy (o, s, n);
            o += n;
        }
        s += n;
    }
    *o = '\0';
    return out;
}

static inline int check_summary (const char *name)
{
    if (check_failures) {
        fprintf (stderr, "%s: %d of %d checks failed\n", name, check_failures,
                 check_count);
        return 1;
    }
    printf ("%s: all %d checks passed\n", name, check_count);
    return 0;
}

#endif
