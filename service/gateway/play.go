package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/coder/websocket"
	rpccode "google.golang.org/genproto/googleapis/rpc/code"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// maxMessage bounds a message from the page: a join or an answer is small.
const maxMessage = 64 << 10

// playBridge carries a Play stream over a WebSocket, one JSON message per frame in each
// direction: PlayRequest from the page, PlayResponse from the server. It opens a real Play
// stream to the arena, so a person's seat obeys exactly what a bot's does: the same join, the
// same clock, the same rejections. The stream's end is a last frame {"error":{"code","message"}}
// (absent after a normal end), then the socket closes.
type playBridge struct {
	arena   orreryv1.ArenaServiceClient
	logger  *slog.Logger
	origins []string      // other origins allowed to open a seat (--web-allow-origin)
	write   time.Duration // to write one frame to the page
}

func (b *playBridge) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// The origin check: only pages served from this host (which guard has checked is one of
	// the server's names) or an allowed origin may open a seat.
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: b.origins})
	if err != nil {
		return // Accept has answered the request
	}
	ws.SetReadLimit(maxMessage)
	b.bridge(r.Context(), ws)
}

// bridge runs one Play stream and closes the socket, after an error frame if the stream
// failed. The socket is closed while the page's reader still runs: cancelling a read would
// close the socket before the last frame went out.
func (b *playBridge) bridge(ctx context.Context, ws *websocket.Conn) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	end := func(err error) {
		if err != nil {
			// The stream's context may be cancelled already; the last frame still goes out.
			wctx, wcancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer wcancel()
			msg, _ := errorFrame(err)
			ws.Write(wctx, websocket.MessageText, msg)
		}
		ws.Close(websocket.StatusNormalClosure, "")
	}
	stream, err := b.arena.Play(ctx)
	if err != nil {
		end(err)
		return
	}
	// The page's messages go to the stream in a sibling goroutine; the server's come back
	// here. An unreadable page message cancels the stream.
	pageErr := make(chan error, 1)
	go func() {
		err := b.pageToServer(ctx, ws, stream)
		pageErr <- err
		if err != nil {
			cancel()
		}
	}()
	for {
		resp, err := stream.Recv()
		if err != nil {
			select {
			case perr := <-pageErr:
				if perr != nil {
					err = perr // the page's fault, which cancelled the stream
				}
			default:
			}
			if errors.Is(err, io.EOF) {
				err = nil
			}
			end(err)
			return
		}
		out, err := Marshaler.Marshal(resp)
		if err != nil {
			end(status.Error(codes.Internal, err.Error()))
			return
		}
		wctx, wcancel := context.WithTimeout(ctx, b.write)
		err = ws.Write(wctx, websocket.MessageText, out)
		wcancel()
		if err != nil {
			return // the page has gone, or stopped reading: nothing left to tell it
		}
	}
}

// pageToServer forwards the page's requests until it closes or sends something unreadable.
// An unreadable message ends the stream by cancelling it (the caller's cancel), not by closing
// it, so that the server cannot end it first as if the page had left.
func (b *playBridge) pageToServer(ctx context.Context, ws *websocket.Conn, stream orreryv1.ArenaService_PlayClient) error {
	for {
		typ, data, err := ws.Read(ctx)
		if err != nil {
			stream.CloseSend()
			return nil // closed: the stream ends with the page
		}
		if typ != websocket.MessageText {
			return status.Error(codes.InvalidArgument, "send PlayRequest messages as JSON text frames")
		}
		req := &orreryv1.PlayRequest{}
		if err := protojson.Unmarshal(data, req); err != nil {
			return status.Errorf(codes.InvalidArgument, "malformed PlayRequest: %v", err)
		}
		if err := stream.Send(req); err != nil {
			return nil // the stream's own error comes from Recv
		}
	}
}

// errorFrame is the last frame of a bridge that ended with err. Its code is the canonical
// name ("UNAUTHENTICATED", google.rpc.Code), as docs/http.md and every gRPC guide write it,
// not grpc-go's Go-style String() ("Unauthenticated").
func errorFrame(err error) ([]byte, error) {
	st := status.Convert(err)
	type body struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	return json.Marshal(struct {
		Error body `json:"error"`
	}{body{rpccode.Code(st.Code()).String(), st.Message()}})
}
