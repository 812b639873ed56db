package planet

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orrery/orrery/engine"
)

// TestData_DefaultTileSet [decision]: 50 tiles of 5 areas, each with 2 or 3 habitats whose
// areas are contiguous (around the tile), totalling 65 ocean, 50 forest, 48 mountain, 47 desert
// and 40 glacier.
func TestData_DefaultTileSet(t *testing.T) {
	d := Default
	if len(d.Tiles) != 50 {
		t.Fatalf("%d tiles, want 50", len(d.Tiles))
	}
	var total [Habitats + 1]int
	for i, tile := range d.Tiles {
		kinds := map[Habitat]bool{}
		runs := 0 // habitat changes going once around the tile
		for k := 0; k < 5; k++ {
			total[tile[k]]++
			kinds[tile[k]] = true
			if tile[k] != tile[(k+1)%5] {
				runs++
			}
		}
		if len(kinds) < 2 || len(kinds) > 3 {
			t.Errorf("tile %d %v has %d habitats, want 2 or 3", i, tile, len(kinds))
		}
		if runs != len(kinds) {
			t.Errorf("tile %d %v: a habitat's areas are not contiguous", i, tile)
		}
	}
	want := map[Habitat]int{Ocean: 65, Forest: 50, Mountain: 48, Desert: 47, Glacier: 40}
	for h, n := range want {
		if total[h] != n {
			t.Errorf("%v: %d areas, want %d", h, total[h], n)
		}
	}
}

// TestData_DefaultAnimalDeck [decision]: 45 named cards, 9 per habitat, every distinct
// requirement exactly once, and the names known from the published game on their requirements.
func TestData_DefaultAnimalDeck(t *testing.T) {
	d := Default
	if len(d.Animals) != 45 {
		t.Fatalf("%d animal cards, want 45", len(d.Animals))
	}
	seen := map[Requirement]bool{}
	names := map[string]bool{}
	var per [Habitats + 1]int
	for _, a := range d.Animals {
		if seen[a.Req] {
			t.Errorf("requirement %v twice", a.Req)
		}
		if names[a.Name] || a.Name == "" {
			t.Errorf("name %q empty or twice", a.Name)
		}
		seen[a.Req], names[a.Name] = true, true
		per[a.Req.X]++
	}
	for h := Ocean; h <= Glacier; h++ {
		if per[h] != 9 {
			t.Errorf("%v: %d cards, want 9", h, per[h])
		}
		for _, kind := range []Kind{LargestTouching, LargestNotTouching} {
			for y := Ocean; y <= Glacier; y++ {
				if y != h && !seen[Requirement{kind, h, y}] {
					t.Errorf("missing %v", Requirement{kind, h, y})
				}
			}
		}
		if !seen[Requirement{Kind: MostRegions, X: h}] {
			t.Errorf("missing most %v regions", h)
		}
	}
	for name, req := range map[string]string{
		"Bear": "largest forest touching mountain", "Penguin": "largest glacier touching ocean",
		"Tiger": "largest forest touching desert", "Jellyfish": "largest ocean not touching forest",
		"Reindeer": "largest glacier not touching desert", "Fox": "largest forest touching glacier",
		"Elephant": "largest desert touching mountain", "Panda": "most forest regions",
	} {
		if got := d.Animals[cardID(t, name)].Req.String(); got != req {
			t.Errorf("%s: %q, want %q", name, got, req)
		}
	}
}

// TestData_ObjectiveScales [decision]: the Natural Habitat table of rules/planet.md.
func TestData_ObjectiveScales(t *testing.T) {
	want := map[Habitat][]int{
		Glacier:  {8, 11, 14, 17, 20, 23},
		Desert:   {9, 13, 16, 20, 24, 27},
		Mountain: {10, 13, 17, 20, 24, 28},
		Forest:   {10, 14, 18, 21, 25, 29},
		Ocean:    {13, 18, 23, 28, 33, 37},
	}
	if len(Default.Objectives) != 5 {
		t.Fatalf("%d objectives, want 5", len(Default.Objectives))
	}
	for _, o := range Default.Objectives {
		if jsonOf(o.Areas) != jsonOf(want[o.Habitat]) {
			t.Errorf("%v areas %v, want %v", o.Habitat, o.Areas, want[o.Habitat])
		}
		if jsonOf(o.Points) != "[1,2,4,6,8,10]" {
			t.Errorf("%v points %v", o.Habitat, o.Points)
		}
	}
	if Default.Layout != [10]int{1, 1, 1, 2, 2, 2, 2, 3, 3, 3} {
		t.Errorf("layout %v", Default.Layout)
	}
}

func jsonOf(v any) string { b, _ := json.Marshal(v); return string(b) }

// TestData_LoadedDataChecked [decision]: loaded data is checked when the match is created, and
// each fault is an error wrapping ErrBadOption that names the tile, card or objective.
func TestData_LoadedDataChecked(t *testing.T) {
	tiles := make([]string, 50)
	for i := range tiles {
		tiles[i] = "ocean ocean forest forest mountain"
	}
	withTile := func(i int, s string) string {
		x := append([]string(nil), tiles...)
		x[i] = s
		return `{"tiles": ` + jsonOf(x) + `}`
	}
	for _, tc := range []struct{ name, data, want string }{
		{"too few tiles", `{"tiles": ` + jsonOf(tiles[:49]) + `}`, "49 tiles"},
		{"four areas", withTile(7, "ocean ocean forest forest"), "tile 7"},
		{"unknown habitat", withTile(12, "ocean lava forest forest mountain"), `tile 12 "ocean lava`},
		{"small deck", `{"animals": [{"name": "Bear", "requirement": "largest forest touching mountain"}]}`, "1 cards"},
		{"bad requirement", `{"animals": [{"name": "Yeti", "requirement": "tallest glacier"}]}`, "animal card 0 (Yeti)"},
		{"self touching", `{"animals": [{"name": "Mole", "requirement": "largest forest touching forest"}]}`, "animal card 0 (Mole)"},
		{"nameless card", `{"animals": [{"name": "", "requirement": "most forest regions"}]}`, "animal card 0 has no name"},
		{"scale not increasing", `{"objectives": [{"habitat": "glacier", "areas": [8, 11, 11], "points": [1, 2, 4]}]}`, "glacier objective: step 2"},
		{"points not increasing", `{"objectives": [{"habitat": "ocean", "areas": [8, 11], "points": [2, 1]}]}`, "ocean objective: step 1"},
		{"steps mismatch", `{"objectives": [{"habitat": "ocean", "areas": [8, 11], "points": [1]}]}`, "ocean objective"},
		{"unknown objective", `{"objectives": [{"habitat": "lava", "areas": [8], "points": [1]}]}`, "objective 0"},
		{"two objectives alike", `{"objectives": [{"habitat": "ocean", "areas": [8], "points": [1]}, {"habitat": "ocean", "areas": [8], "points": [1]}]}`, "objective 1"},
		{"too few objectives", `{"objectives": [{"habitat": "ocean", "areas": [8], "points": [1]}]}`, "1 objective cards for 2 seats"},
		{"short layout", `{"layout": [1, 2]}`, "layout has 2 columns"},
		{"layout beyond deck", `{"layout": [5, 5, 5, 5, 5, 5, 5, 5, 5, 5]}`, "at least 50"},
		{"unknown field", `{"tiles": [], "lava": 1}`, "lava"},
		{"trailing text", `{"layout": [1, 1, 1, 2, 2, 2, 2, 3, 3, 3]} {}`, "after the data set"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := engine.New("planet", engine.Config{Seats: 2, Seed: 1, Options: map[string]string{OptData: tc.data}})
			wantErr(t, err, engine.ErrBadOption, tc.name)
			if err != nil && !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not say %q", err, tc.want)
			}
		})
	}
}

// TestData_LoadAnotherSet: a tournament loads another data set inline; parts
// left out keep the built-in ones.
func TestData_LoadAnotherSet(t *testing.T) {
	layout := `{"layout": [2, 2, 2, 2, 2, 2, 2, 2, 2, 2]}`
	s := newGame(t, 2, 1, map[string]string{OptData: layout})
	if len(s.cards) != 20 || s.cards[0].turn != 3 || s.cards[1].turn != 3 {
		t.Errorf("loaded layout not used: %d cards, first columns %d %d", len(s.cards), s.cards[0].turn, s.cards[1].turn)
	}
	if len(s.d.Tiles) != 50 || s.d.Tiles[0] != Default.Tiles[0] {
		t.Errorf("tiles not kept from the built-in set")
	}
	def := newGame(t, 2, 1, nil)
	a, _ := s.MarshalBinary()
	b, _ := def.MarshalBinary()
	if string(a[:8]) == string(b[:8]) {
		t.Errorf("two data sets give one data hash")
	}

	inline := newGame(t, 2, 1, map[string]string{OptData: string(defaultJSON)})
	x, _ := inline.MarshalBinary()
	if string(x) != string(b) {
		t.Errorf("the built-in data sent inline plays differently from the built-in data")
	}
}

// TestData_NeverReadsAFile: the data option is inline JSON only; a path, even of a readable
// file holding a valid data set, is refused without the engine opening it
// [rule: Where loaded data comes from].
func TestData_NeverReadsAFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "planet.json")
	if err := os.WriteFile(path, defaultJSON, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{path, "default", "default.json", "../data/default.json", "/etc/passwd", "file://" + path} {
		_, err := engine.New("planet", engine.Config{Seats: 2, Seed: 1, Options: map[string]string{OptData: v}})
		wantErr(t, err, engine.ErrBadOption, v)
		if err != nil && !strings.Contains(err.Error(), "inline JSON") {
			t.Errorf("%q: error %q does not say the data must be inline JSON", v, err)
		}
	}
}

// TestData_SizeBounded: a data set of more than 1 MiB is refused before it is parsed.
func TestData_SizeBounded(t *testing.T) {
	big := `{"tiles": [], "pad": "` + strings.Repeat("x", MaxDataBytes) + `"}`
	_, err := engine.New("planet", engine.Config{Seats: 2, Seed: 1, Options: map[string]string{OptData: big}})
	wantErr(t, err, engine.ErrBadOption, "a data set over 1 MiB")
	if err != nil && (!strings.Contains(err.Error(), "more than the 1048576") || len(err.Error()) > 200) {
		t.Errorf("error %q does not give the bound briefly", err)
	}
	// Padding with white space up to the bound is still within it.
	ok := string(defaultJSON) + strings.Repeat(" ", MaxDataBytes-len(defaultJSON))
	if _, err := engine.New("planet", engine.Config{Seats: 2, Seed: 1, Options: map[string]string{OptData: ok}}); err != nil {
		t.Errorf("a data set of exactly 1 MiB: %v", err)
	}
}

// TestData_ErrorsClipClientText: an error quotes the client's data only as a short excerpt,
// however long the faulty value.
func TestData_ErrorsClipClientText(t *testing.T) {
	long := strings.Repeat("lava", 10000)
	for _, tc := range []struct{ name, data string }{
		{"path", "/" + long},
		{"habitat", `{"objectives": [{"habitat": "` + long + `", "areas": [8], "points": [1]}]}`},
		{"requirement", `{"animals": [{"name": "Newt", "requirement": "` + long + `"}]}`},
		{"animal name", `{"animals": [{"name": "` + long + `", "requirement": "most ` + long + ` regions"}]}`},
		{"unknown field", `{"` + long + `": 1}`},
		{"tile", `{"tiles": ["` + long + `"]}`},
		{"own habitat", `{"animals": [{"name": "Newt", "requirement": "largest forest` + strings.Repeat(" ", 40000) + `touching forest"}]}`},
	} {
		_, err := engine.New("planet", engine.Config{Seats: 2, Seed: 1, Options: map[string]string{OptData: tc.data}})
		wantErr(t, err, engine.ErrBadOption, tc.name)
		if err != nil && (len(err.Error()) > 400 || strings.Contains(err.Error(), strings.Repeat("lava", 30))) {
			t.Errorf("%s: error of %d bytes echoes the client's text: %.120q", tc.name, len(err.Error()), err)
		}
	}
}

// TestOptions_DataMarkedAsDataSet: the data option says it carries a data set, so a server
// resolves named sets itself and stores the bytes with the match.
func TestOptions_DataMarkedAsDataSet(t *testing.T) {
	for _, o := range (game{}).Info().Options {
		if (o.Name == OptData) != o.Data {
			t.Errorf("option %s: Data = %v", o.Name, o.Data)
		}
		if o.Name == OptData && !strings.Contains(o.Help, "--data-dir") {
			t.Errorf("the data option's help does not say the server resolves names: %q", o.Help)
		}
	}
}
