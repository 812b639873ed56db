/* greedy.h: a greedy pick by notation, shared by the kit's greedy bots: each legal action is
 * scored by the first rule its notation starts with, the best is played, ties at random. */
#ifndef GREEDY_H
#define GREEDY_H

struct rule {
	const char *prefix;
	int score;
};

/* greedy plays every decision on stdin with rules (ended by a NULL prefix) until stdin ends. */
int greedy(const struct rule *rules);

#endif
