/* icetraders_greedy: an IceTraders bot that plays the most forceful action it is offered:
 * attacks and research before growth, growth before trades and moves, a pass last. It
 * chooses Evil, as the built-in greedy does. */
#include "greedy.h"

static const struct rule rules[] = {
	{"align evil", 100},
	{"attack", 90},
	{"research", 85},
	{"revolt", 80},
	{"enterprise", 70},
	{"grow", 60},
	{"add", 55},
	{"trade", 40},
	{"discover", 35},
	{"move", 30},
	{"place", 20},
	{"pick", 10},
	{"repick", 10},
	{"sacrifice", 5},
	{"end sacrifice", 4},
	{"decline", 2},
	{"pass", 1},
	{0, 0},
};

int main(void) { return greedy(rules); }
