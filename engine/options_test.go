package engine

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckOptionNames_RenamedNamesTheNewOne(t *testing.T) {
	info := Info{Name: "g", Options: []Option{{Name: "turn_cap"}, {Name: "mystery_ahead"}}}
	tests := []struct {
		opts    map[string]string
		wantErr string
	}{
		{map[string]string{"turn_cap": "3", "mystery_ahead": "2"}, ""},
		{map[string]string{"cap": "3"}, `g option "cap" was renamed "turn_cap"`},
		{map[string]string{"nope": "1"}, `g has no option "nope" (options: mystery_ahead, turn_cap)`},
	}
	renamed := map[string]string{"cap": "turn_cap", "mystery-ahead": "mystery_ahead"}
	for _, tt := range tests {
		err := CheckOptionNames(info, tt.opts, renamed)
		if tt.wantErr == "" {
			if err != nil {
				t.Errorf("%v: unexpected error %v", tt.opts, err)
			}
			continue
		}
		if !errors.Is(err, ErrBadOption) || err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%v: got %v, want ErrBadOption containing %q", tt.opts, err, tt.wantErr)
		}
	}
}

func TestIsSnakeCase(t *testing.T) {
	for name, want := range map[string]bool{
		"turn_cap": true, "team_size": true, "reach_cm": true, "d20": true,
		"mystery-ahead": false, "Cap": false, "_x": false, "x_": false, "a__b": false, "": false, "1x": false,
	} {
		if got := IsSnakeCase(name); got != want {
			t.Errorf("IsSnakeCase(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestClip_BoundsQuotedClientText(t *testing.T) {
	long := strings.Repeat("é", 100)
	got := Clip(long, 11)
	if len(got) > 40 || !strings.HasSuffix(got, "…(200 bytes)") || !strings.HasPrefix(got, "ééééé") {
		t.Errorf("Clip = %q", got)
	}
	if Clip("short", 10) != "short" {
		t.Error("Clip changed short text")
	}
}
