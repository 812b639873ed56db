package seedcommit

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"testing"
)

// The commitment cannot be matched by trying seeds alone: it differs from the hash of the
// seed's bytes, and two commitments to one seed differ.
func TestCommitment_SeedsCannotBeGuessedFromTheirHash(t *testing.T) {
	salt1, h1 := New(7)
	salt2, h2 := New(7)
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], 7)
	bare := sha256.Sum256(b[:])
	if h1 == h2 || salt1 == salt2 || h1 == hex.EncodeToString(bare[:]) {
		t.Errorf("commitments %s %s, bare hash %x", h1, h2, bare)
	}
	tests := []struct {
		name string
		hash string
		seed uint64
		salt string
		ok   bool
	}{
		{"revealed", h1, 7, salt1, true},
		{"another salt", h1, 7, salt2, false},
		{"another seed", h1, 8, salt1, false},
		{"no salt", h1, 7, "", false},
		{"bad hex", h1, 7, "zz", false},
		{"before salts", hex.EncodeToString(bare[:]), 7, "", true},
	}
	for _, tt := range tests {
		if err := Verify(tt.hash, tt.seed, tt.salt); (err == nil) != tt.ok {
			t.Errorf("%s: Verify = %v, want ok %v", tt.name, err, tt.ok)
		}
	}
}
