/* random: a hosted bot for every game, a uniform pick among the legal actions. It needs only
 * their number, so it asks for nothing else. */
#include "orrery.h"

int main(void) {
	orrery_receive("\"omit_legal\": true, \"omit_legal_notation\": true, \"omit_text\": true, "
	               "\"omit_observation\": true, \"omit_events\": true");
	const char *line;
	while ((line = orrery_read_line()) != NULL)
		orrery_answer((int)orrery_random((uint32_t)orrery_legal_count(line)), NULL);
	return 0;
}
