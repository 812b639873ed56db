package main

import (
	"context"
	"os/signal"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/random"
	"github.com/orrery/orrery/bots/sdk"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/store"
)

// fileSizeEnv, set in the soak server's environment, caps the size of every file it writes
// (RLIMIT_FSIZE): a full disk without root. A write past it fails with EFBIG.
const fileSizeEnv = "ORRERY_SOAK_FSIZE"

func limitFileSize(v string) {
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return
	}
	signal.Ignore(syscall.SIGXFSZ) // fail the write instead of killing the process
	syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: n, Max: unix.RLIM_INFINITY})
}

// A real full disk (RLIMIT_FSIZE on an `orrery serve` process): every seat told a match
// ended finds its result in the database at that moment; once the server cannot write,
// CreateMatch is Unavailable; when the limit is lifted, the paused matches go on and end.
func TestDiskFull_NoClientToldWhatTheDatabaseDoesNotHold(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a server process")
	}
	srv := &soakServer{t: t, addr: freeAddr(t), db: filepath.Join(t.TempDir(), "full.db"), env: []string{fileSizeEnv + "=" + strconv.Itoa(600<<10)}}
	srv.start()
	defer srv.kill()
	conn, err := grpc.NewClient(srv.addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	client := orreryv1.NewArenaServiceClient(conn)
	reader, err := store.Open(srv.db) // a second reader of the server's database
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	var wg sync.WaitGroup
	full, made := false, 0
	var ids []string
	for i := 0; i < 300 && !full; i++ {
		seed := uint64(i + 1)
		created, err := client.CreateMatch(ctx, &orreryv1.CreateMatchRequest{Game: "icetraders", Seats: 3, Seed: &seed,
			Clock: &orreryv1.Clock{PerMove: durationpb.New(time.Minute)}})
		if status.Code(err) == codes.Unavailable {
			full = true
			break
		}
		if err != nil {
			t.Fatalf("match %d: %v", i, err)
		}
		made++
		ids = append(ids, created.GetMatchId())
		for seat, st := range created.GetSeats() {
			wg.Add(1)
			go func() {
				defer wg.Done()
				// Paced, so that matches are still running when the disk fills and must pause.
				bot := random.New(seed*10 + uint64(seat))
				paced := bots.Func(func(d *orreryv1.Decision) *orreryv1.Answer { time.Sleep(10 * time.Millisecond); return bot.Act(d) })
				end, err := sdk.Play(ctx, conn, st.GetToken(), paced, sdk.Options{Reconnects: -1, MaxBackoff: 200 * time.Millisecond})
				if err != nil {
					t.Errorf("match %s seat %d: %v", created.GetMatchId(), seat, err)
					return
				}
				rec, err := reader.Match(ctx, created.GetMatchId())
				if err != nil || rec.Result == nil || rec.Result.Reason != int32(end.GetResult().GetReason()) {
					t.Errorf("seat %d was told %s ended (%v); the database holds %+v, %v", seat, created.GetMatchId(), end.GetResult(), rec, err)
				}
			}()
		}
		if i%4 == 3 {
			time.Sleep(50 * time.Millisecond) // let the log grow between batches
		}
	}
	if !full || made == 0 {
		t.Fatalf("the database never filled its file size limit (%d matches created)", made)
	}
	t.Logf("the disk filled after %d matches", made)
	// The running matches pause while the server cannot write.
	for paused := false; !paused; {
		finished := 0
		for _, id := range ids {
			got, err := client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: id})
			if err != nil {
				t.Fatal(err)
			}
			switch got.GetMatch().GetStatus() {
			case orreryv1.MatchStatus_MATCH_STATUS_PAUSED:
				paused = true
			case orreryv1.MatchStatus_MATCH_STATUS_FINISHED:
				finished++
			}
		}
		if !paused && finished == len(ids) {
			t.Fatalf("no match paused: all %d ended although the server could not write", finished)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Room again: lift the limit on the running server.
	inf := unix.Rlimit{Cur: unix.RLIM_INFINITY, Max: unix.RLIM_INFINITY}
	if err := unix.Prlimit(srv.cmd.Process.Pid, unix.RLIMIT_FSIZE, &inf, nil); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	for {
		if _, err := client.CreateMatch(ctx, &orreryv1.CreateMatchRequest{Game: "icetraders", Seats: 3}); err == nil {
			break
		} else if status.Code(err) != codes.Unavailable || ctx.Err() != nil {
			t.Fatalf("CreateMatch after the disk has room: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
