/* greedy.c: see greedy.h. */
#include "greedy.h"
#include "orrery.h"

#include <stdio.h>
#include <string.h>

static int score(const struct rule *rules, const char *notation) {
	for (const struct rule *r = rules; r->prefix; r++)
		if (strncmp(notation, r->prefix, strlen(r->prefix)) == 0)
			return r->score;
	return 0;
}

int greedy(const struct rule *rules) {
	/* Only the notations are read: the rest of a decision is left out. */
	orrery_receive("\"omit_legal\": true, \"omit_text\": true, \"omit_observation\": true, \"omit_events\": true");
	const char *line;
	char note[160];
	while ((line = orrery_read_line()) != NULL) {
		char **legal;
		int n = orrery_notations(line, &legal);
		if (n == 0) { /* no notations: any listed action is legal */
			orrery_answer(0, "no notations");
			continue;
		}
		int best = 0, top = score(rules, legal[0]), ties = 1;
		for (int i = 1; i < n; i++) {
			int s = score(rules, legal[i]);
			if (s > top) {
				best = i;
				top = s;
				ties = 1;
			} else if (s == top && orrery_random((uint32_t)++ties) == 0) {
				best = i;
			}
		}
		snprintf(note, sizeof note, "%s (score %d of %d actions)", legal[best], top, n);
		orrery_answer(best, note);
	}
	return 0;
}
