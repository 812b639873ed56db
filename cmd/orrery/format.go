package main

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// The output is for people: lists, maps and booleans in words, never Go's formatting of them
// ("map[]", "[a b]", "true").

// list joins items with commas, or says none.
func list(items []string) string {
	if len(items) == 0 {
		return "none"
	}
	return strings.Join(items, ", ")
}

// optionList is a match's options as name=value pairs in name order, or "default options".
func optionList(options map[string]string) string {
	if len(options) == 0 {
		return "default options"
	}
	parts := make([]string, 0, len(options))
	for _, k := range slices.Sorted(maps.Keys(options)) {
		parts = append(parts, k+"="+options[k])
	}
	return "options " + strings.Join(parts, ", ")
}

// yesNo is a flag in a table.
func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// seatList numbers each seat's value: "seat 0: 1, seat 1: 2".
func seatList[T int | int32 | float64](values []T) string {
	parts := make([]string, len(values))
	for i, v := range values {
		parts[i] = fmt.Sprintf("seat %d: %s", i, number(v))
	}
	return strings.Join(parts, ", ")
}

// number is an integer without a decimal point, a fraction in its shortest form.
func number[T int | int32 | float64](v T) string {
	return strconv.FormatFloat(float64(v), 'f', -1, 64)
}

// resultLine is a match's outcome in a line: how it ended, each seat's rank and score.
func resultLine(res *orreryv1.Result) string {
	parts := make([]string, len(res.GetRanks()))
	for i, r := range res.GetRanks() {
		parts[i] = fmt.Sprintf("seat %d rank %d", i, r)
		if i < len(res.GetScores()) {
			parts[i] += " (score " + number(res.GetScores()[i]) + ")"
		}
	}
	line := endReason(res.GetReason())
	if res.GetDetail() != "" {
		line += " (" + res.GetDetail() + ")"
	}
	return line + ": " + strings.Join(parts, ", ")
}
