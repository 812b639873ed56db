package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// selfSigned writes a certificate for 127.0.0.1 and its key, and returns their paths.
func selfSigned(t *testing.T) (cert, key string) {
	t.Helper()
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "orrery test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &priv.PublicKey, priv)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cert, key = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644)
	os.WriteFile(key, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600)
	return cert, key
}

// serve --tls-cert --tls-key serves over TLS: a client with --tls-ca of the certificate
// gets through; a plaintext client and one that does not trust the certificate do not.
func TestTLS_ServeAndClientsWithTheCA(t *testing.T) {
	cert, key := selfSigned(t)
	conf, err := serverTLS(cert, key)
	if err != nil {
		t.Fatal(err)
	}
	a, err := startArena(arenaConfig{addr: "127.0.0.1:0", tls: conf})
	if err != nil {
		t.Fatal(err)
	}
	defer a.stop()
	addr := a.lis.Addr().String()
	saved := clientTransport
	defer func() { clientTransport = saved }()
	tests := []struct {
		name      string
		transport clientTLS
		ok        bool
	}{
		{"--tls-ca the certificate", clientTLS{ca: cert}, true},
		{"plaintext", clientTLS{}, false},
		{"--tls with the system's CAs", clientTLS{on: true}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clientTransport = tt.transport
			conn, err := dial(addr)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			_, err = orreryv1.NewArenaServiceClient(conn).ListGames(ctx, &orreryv1.ListGamesRequest{})
			if (err == nil) != tt.ok {
				t.Errorf("ListGames: %v, want ok %v", err, tt.ok)
			}
		})
	}
	if _, err := serverTLS(cert, ""); err == nil {
		t.Error("--tls-cert without --tls-key was accepted")
	}
}
