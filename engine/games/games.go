// Package games links every game engine into a binary: importing it registers them all.
// Each game adds its blank import here.
package games

import (
	_ "github.com/orrery/orrery/engine/fccatan"
	_ "github.com/orrery/orrery/engine/icetraders"
	_ "github.com/orrery/orrery/engine/pantropia"
	_ "github.com/orrery/orrery/engine/planet"
)
