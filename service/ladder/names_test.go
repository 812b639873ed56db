package ladder

import (
	"context"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// Names that cannot be impersonated: a client creating a match may not seat anyone under a
// registered or house bot's name, in any letter case; other names are free.
func TestNames_RegisteredAndHouseNamesAreReserved(t *testing.T) {
	e := newEnv(t, nil, quick(Config{}), "")
	e.register("alpha")
	tests := []struct {
		name string
		want codes.Code
	}{
		{"alpha", codes.PermissionDenied},
		{"ALPHA", codes.PermissionDenied},
		{" alpha ", codes.PermissionDenied},
		{"house-random", codes.PermissionDenied},
		{"alpha2", codes.OK},
	}
	for _, tt := range tests {
		_, err := e.client.CreateMatch(context.Background(), &orreryv1.CreateMatchRequest{Game: testGame, Seats: 2, SeatNames: []string{"", tt.name}})
		if status.Code(err) != tt.want {
			t.Errorf("seat name %q: got %v, want %v", tt.name, err, tt.want)
		}
	}
}
