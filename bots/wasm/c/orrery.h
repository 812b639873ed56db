/* orrery.h: the line protocol of an Orrery hosted bot, for C (docs/hosted.md).
 *
 * A bot is a WASI command: main reads one decision line from stdin, answers one line on
 * stdout, and again until stdin ends. These helpers read the few fields a simple bot needs
 * straight from the line (the protojson form of orrery.v1.Decision, proto field names).
 *
 *   clang --target=wasm32-wasi -O2 -o bot.wasm bot.c orrery.c
 */
#ifndef ORRERY_H
#define ORRERY_H

#include <stddef.h>
#include <stdint.h>

/* orrery_receive prints the first line, naming the parts of a decision to leave out, as a
 * JSON object of orrery.v1.Receive (e.g. "\"omit_text\": true"). Call it before the first
 * read, or never: without it a bot gets every part but the events. */
void orrery_receive(const char *fields);

/* orrery_read_line reads the next decision line, without its newline, into a buffer the next
 * call reuses; NULL once the host closes stdin. It reads stdin itself (read(2), not stdio):
 * a bot using it reads stdin through it alone. */
const char *orrery_read_line(void);

/* orrery_legal_count is the decision's number of legal actions (its "legal_count"). */
int orrery_legal_count(const char *line);

/* orrery_notations decodes the decision's "legal_notation" list into notations (the strings,
 * in the legal order, until the next call) and returns how many there are; 0 if the line has
 * none (the bot left them out). */
int orrery_notations(const char *line, char ***notations);

/* orrery_answer prints the answer naming legal action index, with debug (NULL: none) as the
 * note kept with the step, and flushes it. */
void orrery_answer(int index, const char *debug);

/* orrery_seed is 64 bits from the host's random source, which is seeded from the match seed
 * and the seat, and at each decision from the seat and the decision's ply: a bot that seeds
 * itself from it replays with the match. */
uint64_t orrery_seed(void);

/* orrery_random is the next number below n (n > 0) of a generator seeded by orrery_seed
 * afresh at each decision: its picks at a ply are the same however the bot got there, even
 * when its seat restarted mid-match with a fresh instance (a server restart). */
uint32_t orrery_random(uint32_t n);

#endif
