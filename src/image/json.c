/* json.c — a small validating JSON parser (RFC 8259) for the .env manifest.
 *
 * Output is a flat array of tokens in document order; each token records the
 * index just past its subtree, so member lookups skip subtrees without
 * recursion. Parsing recurses, bounded by MAX_DEPTH. Numbers are parsed here
 * (not strtod, which follows the process locale): up to 19 significant
 * digits, scaled by a power of ten — within a few ulps, plenty for sizes,
 * offsets and float coefficients. Token offsets are 32-bit: texts over 1 GiB
 * are refused. */
#include <math.h>
#include <string.h>

#include "image_int.h"

#define MAX_DEPTH 64
#define MAX_TEXT ((size_t)1 << 30)

typedef struct parser {
    orri_image_ctx *c;
    orri_json *j;
    const char *s;
    size_t len, pos;
    bool oom;
} parser;

static void skip_ws(parser *p) {
    while (p->pos < p->len) {
        char ch = p->s[p->pos];
        if (ch != ' ' && ch != '\t' && ch != '\n' && ch != '\r') break;
        p->pos++;
    }
}

static int32_t push(parser *p, orri_json_type type) {
    orri_json *j = p->j;
    if (j->count == j->cap) {
        uint32_t cap = j->cap ? j->cap * 2 : 64;
        orri_json_tok *t = p->c->allocator.realloc(j->toks, (size_t)cap * sizeof *t, p->c->allocator.user);
        if (!t) {
            p->oom = true;
            return -1;
        }
        j->toks = t;
        j->cap = cap;
    }
    j->toks[j->count] = (orri_json_tok){.type = type, .start = (uint32_t)p->pos};
    return (int32_t)j->count++;
}

static bool is_digit(char ch) { return ch >= '0' && ch <= '9'; }

static bool parse_number(parser *p, double *out) {
    const char *s = p->s;
    size_t i = p->pos, n = p->len;
    bool neg = false;
    if (i < n && s[i] == '-') neg = true, i++;
    if (i >= n || !is_digit(s[i])) return false;
    uint64_t mant = 0;
    int digits = 0, exp10 = 0;
    if (s[i] == '0')
        i++;
    else
        for (; i < n && is_digit(s[i]); i++) {
            if (digits < 19)
                mant = mant * 10 + (uint64_t)(s[i] - '0'), digits += mant != 0;
            else
                exp10++;
        }
    if (i < n && s[i] == '.') {
        i++;
        if (i >= n || !is_digit(s[i])) return false;
        for (; i < n && is_digit(s[i]); i++)
            if (digits < 19) mant = mant * 10 + (uint64_t)(s[i] - '0'), digits += mant != 0, exp10--;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        bool eneg = false;
        if (i < n && (s[i] == '+' || s[i] == '-')) eneg = s[i++] == '-';
        if (i >= n || !is_digit(s[i])) return false;
        int e = 0;
        for (; i < n && is_digit(s[i]); i++)
            if (e < 100000) e = e * 10 + (s[i] - '0');
        exp10 += eneg ? -e : e;
    }
    double v = (double)mant;
    if (mant && exp10 > 400)
        v = INFINITY;
    else if (mant && exp10 < -400)
        v = 0.0;
    else if (exp10 < 0)
        v /= pow(10.0, -exp10); /* division keeps 0.1-style values exact-rounded more often */
    else if (exp10 > 0)
        v *= pow(10.0, exp10);
    *out = neg ? -v : v;
    p->pos = i;
    return true;
}

static bool parse_string(parser *p) {
    /* at the opening quote */
    size_t i = p->pos + 1;
    while (i < p->len) {
        unsigned char ch = (unsigned char)p->s[i];
        if (ch == '"') {
            p->pos = i + 1;
            return true;
        }
        if (ch < 0x20) return false;
        if (ch == '\\') {
            if (++i >= p->len) return false;
            char e = p->s[i];
            if (e == 'u') {
                for (int k = 1; k <= 4; k++) {
                    if (i + (size_t)k >= p->len) return false;
                    char h = p->s[i + (size_t)k];
                    if (!is_digit(h) && !((h | 0x20) >= 'a' && (h | 0x20) <= 'f')) return false;
                }
                i += 4;
            } else if (!strchr("\"\\/bfnrt", e) || e == '\0') {
                return false;
            }
        }
        i++;
    }
    return false;
}

static bool literal(parser *p, const char *word) {
    size_t n = strlen(word);
    if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n) != 0) return false;
    p->pos += n;
    return true;
}

static bool parse_value(parser *p, int depth);

static bool parse_container(parser *p, int32_t t, bool object, int depth) {
    char close = object ? '}' : ']';
    p->pos++; /* the bracket */
    skip_ws(p);
    uint32_t children = 0;
    if (p->pos < p->len && p->s[p->pos] == close) {
        p->pos++;
    } else {
        for (;;) {
            skip_ws(p);
            if (object) {
                if (p->pos >= p->len || p->s[p->pos] != '"') return false;
                int32_t k = push(p, ORRI_JSON_STRING);
                if (k < 0 || !parse_string(p)) return false;
                p->j->toks[k].start++;
                p->j->toks[k].len = (uint32_t)(p->pos - 1 - p->j->toks[k].start);
                p->j->toks[k].next = (uint32_t)k + 1;
                children++;
                skip_ws(p);
                if (p->pos >= p->len || p->s[p->pos] != ':') return false;
                p->pos++;
            }
            if (!parse_value(p, depth + 1)) return false;
            children++;
            skip_ws(p);
            if (p->pos >= p->len) return false;
            char ch = p->s[p->pos++];
            if (ch == close) break;
            if (ch != ',') return false;
        }
    }
    p->j->toks[t].children = children;
    return true;
}

static bool parse_value(parser *p, int depth) {
    if (depth > MAX_DEPTH) return false;
    skip_ws(p);
    if (p->pos >= p->len) return false;
    char ch = p->s[p->pos];
    orri_json_type type = ch == '{'                  ? ORRI_JSON_OBJECT
                          : ch == '['                ? ORRI_JSON_ARRAY
                          : ch == '"'                ? ORRI_JSON_STRING
                          : (ch == 't' || ch == 'f') ? ORRI_JSON_BOOL
                          : ch == 'n'                ? ORRI_JSON_NULL
                                                     : ORRI_JSON_NUMBER;
    int32_t t = push(p, type);
    if (t < 0) return false;
    bool ok;
    double num = 0;
    switch (type) {
    case ORRI_JSON_OBJECT: ok = parse_container(p, t, true, depth); break;
    case ORRI_JSON_ARRAY: ok = parse_container(p, t, false, depth); break;
    case ORRI_JSON_STRING: ok = parse_string(p); break;
    case ORRI_JSON_BOOL: ok = literal(p, "true") ? (num = 1, true) : literal(p, "false"); break;
    case ORRI_JSON_NULL: ok = literal(p, "null"); break;
    default: ok = parse_number(p, &num); break;
    }
    if (!ok) return false;
    orri_json_tok *tok = &p->j->toks[t]; /* re-read: children may have grown the array */
    tok->number = num;
    if (type == ORRI_JSON_STRING)
        tok->start++, tok->len = (uint32_t)(p->pos - 1 - tok->start);
    else
        tok->len = (uint32_t)(p->pos - tok->start);
    tok->next = p->j->count;
    return true;
}

orr_result orri_json_parse(orri_image_ctx *c, const char *text, size_t len, orri_json *out) {
    memset(out, 0, sizeof *out);
    if (len > MAX_TEXT) return orri_image_fail(c, ORR_ERROR_UNSUPPORTED, "JSON of %zu bytes (limit 1 GiB)", len);
    out->text = text;
    parser p = {.c = c, .j = out, .s = text, .len = len};
    bool ok = parse_value(&p, 0);
    if (ok) {
        skip_ws(&p);
        ok = p.pos == p.len;
    }
    if (ok) return ORR_OK;
    orri_json_free(c, out);
    if (p.oom) return orri_image_fail(c, ORR_ERROR_OUT_OF_HOST_MEMORY, "out of memory parsing JSON");
    return orri_image_fail(c, ORR_ERROR_MALFORMED, "JSON syntax error near byte %zu", p.pos);
}

void orri_json_free(orri_image_ctx *c, orri_json *j) {
    if (j->toks) c->allocator.free(j->toks, c->allocator.user);
    memset(j, 0, sizeof *j);
}

int32_t orri_json_member(const orri_json *j, int32_t obj, const char *key) {
    if (obj < 0 || (uint32_t)obj >= j->count || j->toks[obj].type != ORRI_JSON_OBJECT) return -1;
    size_t klen = strlen(key);
    uint32_t i = (uint32_t)obj + 1;
    for (uint32_t m = 0; m < j->toks[obj].children / 2; m++) {
        const orri_json_tok *k = &j->toks[i];
        uint32_t v = k->next;
        if (k->len == klen && memcmp(j->text + k->start, key, klen) == 0) return (int32_t)v;
        i = j->toks[v].next;
    }
    return -1;
}

int32_t orri_json_element(const orri_json *j, int32_t arr, uint32_t idx) {
    if (arr < 0 || (uint32_t)arr >= j->count || j->toks[arr].type != ORRI_JSON_ARRAY) return -1;
    if (idx >= j->toks[arr].children) return -1;
    uint32_t i = (uint32_t)arr + 1;
    for (uint32_t e = 0; e < idx; e++) i = j->toks[i].next;
    return (int32_t)i;
}

bool orri_json_string_is(const orri_json *j, int32_t tok, const char *s) {
    if (tok < 0 || j->toks[tok].type != ORRI_JSON_STRING) return false;
    size_t n = strlen(s);
    return j->toks[tok].len == n && memcmp(j->text + j->toks[tok].start, s, n) == 0;
}
