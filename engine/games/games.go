// Package games links every game engine into a binary: importing it registers them all.
package games

import (
	// Each game registers itself in init().
	_ "github.com/orrery/orrery/engine/icetraders"
)
