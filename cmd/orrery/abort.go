package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	botladder "github.com/orrery/orrery/bots/ladder"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// abortMatch runs `orrery matches --abort ID`: AbortMatch with the admin key, or with the
// creator token or every seat's token from --tokens, for the match's creator.
func abortMatch(ctx context.Context, stdout io.Writer, o matchesOptions) error {
	key, err := keyFrom(o.key, "ORRERY_ADMIN_KEY")
	if err != nil {
		return err
	}
	req := &orreryv1.AbortMatchRequest{MatchId: o.abort, Reason: o.reason}
	if o.tokens != "" {
		if req.SeatTokens, req.CreatorToken, err = readTokens(o.tokens); err != nil {
			return err
		}
	}
	if key == "" && len(req.SeatTokens) == 0 && req.CreatorToken == "" {
		return usagef("--abort takes the server's admin key (--key, or ORRERY_ADMIN_KEY) or, from the match's creator, its creator token or every seat's token (--tokens FILE)")
	}
	conn, err := dial(o.server)
	if err != nil {
		return err
	}
	defer conn.Close()
	if key != "" {
		ctx = botladder.Key(ctx, key)
	}
	resp, err := orreryv1.NewArenaServiceClient(conn).AbortMatch(ctx, req)
	if err != nil {
		return err
	}
	if o.asJSON {
		return printProto(stdout, resp)
	}
	fmt.Fprintf(stdout, "match %s: %s\n", resp.GetMatch().GetMatchId(), resultLine(resp.GetMatch().GetResult()))
	return nil
}

// readTokens reads a match's seat tokens from file: "seat N TOKEN" lines, as the Python and
// JavaScript clients' create prints them (other lines skipped), or else one token a line, in
// seat order; and its creator token, from a "creator TOKEN" line (CreateMatchResponse's
// creator_token), which is proof enough alone.
func readTokens(file string) (seats []string, creator string, err error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, "", fmt.Errorf("--tokens: %w", err)
	}
	defer f.Close()
	bySeat := map[int]string{}
	var plain []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		switch {
		case len(fields) == 2 && fields[0] == "creator":
			creator = fields[1]
		case len(fields) == 3 && fields[0] == "seat":
			n, err := strconv.Atoi(fields[1])
			if err != nil || n < 0 {
				return nil, "", usagef("--tokens %s: %q is not a seat number", file, fields[1])
			}
			bySeat[n] = fields[2]
		case len(fields) == 1:
			plain = append(plain, fields[0])
		}
	}
	if err := sc.Err(); err != nil {
		return nil, "", fmt.Errorf("--tokens: %w", err)
	}
	if len(bySeat) == 0 {
		if len(plain) == 0 && creator == "" {
			return nil, "", usagef("--tokens %s holds no token", file)
		}
		return plain, creator, nil
	}
	out := make([]string, len(bySeat))
	for n, t := range bySeat {
		if n >= len(out) {
			return nil, "", usagef("--tokens %s: seat %d's token, but %d seats listed: every seat's is needed", file, n, len(bySeat))
		}
		out[n] = t
	}
	return out, creator, nil
}
