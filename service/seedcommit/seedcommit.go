// Package seedcommit is a match's commitment to its seed: published at the start, checked
// against the seed revealed at the end. The hash covers a random salt as well as the seed,
// so a seed cannot be found from its hash by trying seeds (a client-chosen seed, or a small
// one, would otherwise fall to a dictionary).
package seedcommit

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
	"encoding/hex"
	"fmt"
)

// SaltBytes is the salt's length.
const SaltBytes = 16

// New draws a salt and returns it (hex) with the commitment to seed.
func New(seed uint64) (salt, hash string) {
	var b [SaltBytes]byte
	rand.Read(b[:]) // crypto/rand never fails on supported platforms
	salt = hex.EncodeToString(b[:])
	return salt, Hash(seed, b[:])
}

// Hash is hex SHA-256 of the seed's 8 big-endian bytes followed by the salt's bytes. An
// empty salt gives the commitment of matches made before salts.
func Hash(seed uint64, salt []byte) string {
	h := sha256.New()
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], seed)
	h.Write(b[:])
	h.Write(salt)
	return hex.EncodeToString(h.Sum(nil))
}

// Verify checks a revealed seed and salt (hex) against the published commitment.
func Verify(hash string, seed uint64, saltHex string) error {
	salt, err := hex.DecodeString(saltHex)
	if err != nil || (len(salt) != 0 && len(salt) != SaltBytes) {
		return fmt.Errorf("seed salt %q is not %d bytes of hex", saltHex, SaltBytes)
	}
	if subtle.ConstantTimeCompare([]byte(Hash(seed, salt)), []byte(hash)) != 1 {
		return fmt.Errorf("seed %d and salt %q do not match the published hash %s", seed, saltHex, hash)
	}
	return nil
}
