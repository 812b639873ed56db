/* pantropia_greedy: a PanTropia bot that builds the biggest thing it can: an arcology before
 * a habitat, a habitat before a ring, then settling and shuttles, buying and cards; it trades
 * only by accepting, and ends its turn when nothing else scores. */
#include "greedy.h"

static const struct rule rules[] = {
	{"arcology", 100},
	{"habitat", 90},
	{"ring", 80},
	{"settle", 70},
	{"shuttle", 60},
	{"buy", 50},
	{"play", 45},
	{"terraform", 40},
	{"earth", 35},
	{"pantropy", 30},
	{"accept", 25},
	{"remove", 20},
	{"luddite", 15},
	{"discard", 10},
	{"decline", 8},
	{"end", 3},
	{"pass", 3},
	{"abandon", 2},
	{"offer", 1},
	{0, 0},
};

int main(void) { return greedy(rules); }
