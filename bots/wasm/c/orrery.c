/* orrery.c: see orrery.h. */
#include "orrery.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void orrery_receive(const char *fields) {
	printf("{\"receive\": {%s}}\n", fields);
	fflush(stdout);
}

/* The decision lines read so far: line_len bytes in line_buf, of which the first line_next
 * are the line returned last. */
static char *line_buf;
static size_t line_cap, line_len, line_next;

/* state is orrery_random's generator: 0 until it is seeded, again at each decision. */
static uint64_t state;

/* orrery_read_line reads stdin itself, in large reads: wasi-libc's stdio costs a hosted bot
 * more than the rest of its decision. */
const char *orrery_read_line(void) {
	state = 0;
	memmove(line_buf, line_buf + line_next, line_len - line_next);
	line_len -= line_next;
	line_next = 0;
	for (;;) {
		char *nl = line_len ? memchr(line_buf, '\n', line_len) : NULL;
		if (nl) {
			*nl = 0;
			line_next = (size_t)(nl - line_buf) + 1;
			return line_buf;
		}
		if (line_cap - line_len < (1 << 12)) {
			line_cap = line_cap ? 2 * line_cap : 1 << 16;
			line_buf = realloc(line_buf, line_cap);
			if (!line_buf) {
				fprintf(stderr, "orrery: out of memory reading a decision\n");
				exit(1);
			}
		}
		ssize_t n = read(0, line_buf + line_len, line_cap - line_len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (line_len == 0)
				return NULL;
			line_buf[line_len] = 0; /* a last line without its newline */
			line_next = line_len;
			return line_buf;
		}
		line_len += (size_t)n;
	}
}

/* field finds the value of "name": in line (any spaces after the colon skipped). */
static const char *field(const char *line, const char *name) {
	size_t len = strlen(name);
	for (const char *p = strstr(line, name); p; p = strstr(p + 1, name)) {
		if (p > line && p[-1] == '"' && p[len] == '"' && p[len + 1] == ':') {
			p += len + 2;
			while (*p == ' ')
				p++;
			return p;
		}
	}
	return NULL;
}

int orrery_legal_count(const char *line) {
	const char *p = field(line, "legal_count");
	return p ? atoi(p) : 0;
}

static char **notes;
static size_t notes_cap;
static char *notes_text;

/* string decodes the JSON string at *p (past its opening quote) into out, returning the end. */
static const char *string(const char *p, char *out) {
	while (*p && *p != '"') {
		if (*p != '\\') {
			*out++ = *p++;
			continue;
		}
		p++;
		switch (*p) {
		case 'n': *out++ = '\n'; break;
		case 't': *out++ = '\t'; break;
		case 'u': { /* the notations are ASCII: keep a \u00XX as its byte */
			unsigned v = 0;
			for (int i = 1; i <= 4 && p[i]; i++)
				v = v * 16 + (unsigned)(p[i] <= '9' ? p[i] - '0' : (p[i] | 32) - 'a' + 10);
			*out++ = (char)(v < 128 ? v : '?');
			p += 4;
			break;
		}
		default: *out++ = *p; /* \" \\ \/ */
		}
		if (*p)
			p++;
	}
	*out = 0;
	return *p ? p + 1 : p;
}

int orrery_notations(const char *line, char ***out) {
	const char *p = field(line, "legal_notation");
	*out = NULL;
	if (!p || *p != '[')
		return 0;
	free(notes_text);
	notes_text = malloc(strlen(p) + 1);
	char *text = notes_text;
	size_t n = 0;
	for (p++;;) {
		while (*p == ' ' || *p == ',')
			p++;
		if (*p != '"')
			break;
		if (n == notes_cap) {
			notes_cap = notes_cap ? 2 * notes_cap : 64;
			notes = realloc(notes, notes_cap * sizeof *notes);
		}
		notes[n++] = text;
		p = string(p + 1, text);
		text += strlen(text) + 1;
	}
	*out = notes;
	return (int)n;
}

void orrery_answer(int index, const char *debug) {
	printf("{\"legal_index\": %d", index);
	if (debug) {
		fputs(", \"debug\": \"", stdout);
		for (const char *c = debug; *c; c++) {
			if (*c == '"' || *c == '\\')
				printf("\\%c", *c);
			else if ((unsigned char)*c < 0x20)
				printf("\\u%04x", *c);
			else
				putchar(*c);
		}
		putchar('"');
	}
	puts("}");
	fflush(stdout);
}

uint64_t orrery_seed(void) {
	uint64_t seed = 0;
	if (getentropy(&seed, sizeof seed) != 0) {
		fprintf(stderr, "orrery: no entropy from the host\n");
		exit(1);
	}
	return seed;
}

uint32_t orrery_random(uint32_t n) {
	if (state == 0)
		state = orrery_seed() | 1;
	/* xorshift64*: small, and the same on every platform */
	state ^= state >> 12;
	state ^= state << 25;
	state ^= state >> 27;
	return n ? (uint32_t)((state * 0x2545F4914F6CDD1DULL) >> 32) % n : 0;
}
