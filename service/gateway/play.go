package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"

	"github.com/coder/websocket"
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
	arena  orreryv1.ArenaServiceClient
	logger *slog.Logger
}

func (b *playBridge) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// The default origin check stands: only pages served from this host may open a seat.
	ws, err := websocket.Accept(w, r, nil)
	if err != nil {
		return // Accept has answered the request
	}
	ws.SetReadLimit(maxMessage)
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	end := b.bridge(ctx, ws)
	if end != nil {
		msg, _ := errorFrame(end)
		ws.Write(ctx, websocket.MessageText, msg)
		ws.Close(websocket.StatusNormalClosure, "")
		return
	}
	ws.Close(websocket.StatusNormalClosure, "match ended")
}

// bridge runs one Play stream; it returns the stream's error, nil after MatchEnded.
func (b *playBridge) bridge(ctx context.Context, ws *websocket.Conn) error {
	stream, err := b.arena.Play(ctx)
	if err != nil {
		return err
	}
	// The page's messages go to the stream in this goroutine's sibling; the server's come
	// back here. Either side ending cancels the other through ctx.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	recvErr := make(chan error, 1)
	go func() {
		recvErr <- b.pageToServer(ctx, ws, stream)
		cancel()
	}()
	for {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			select {
			case perr := <-recvErr:
				if perr != nil {
					return perr
				}
			default:
			}
			return err
		}
		out, err := Marshaler.Marshal(resp)
		if err != nil {
			return status.Error(codes.Internal, err.Error())
		}
		if err := ws.Write(ctx, websocket.MessageText, out); err != nil {
			return nil // the page has gone: nothing left to tell it
		}
	}
}

// pageToServer forwards the page's requests until it closes or sends something unreadable.
func (b *playBridge) pageToServer(ctx context.Context, ws *websocket.Conn, stream orreryv1.ArenaService_PlayClient) error {
	defer stream.CloseSend()
	for {
		typ, data, err := ws.Read(ctx)
		if err != nil {
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

// errorFrame is the last frame of a bridge that ended with err.
func errorFrame(err error) ([]byte, error) {
	st := status.Convert(err)
	type body struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	return json.Marshal(struct {
		Error body `json:"error"`
	}{body{st.Code().String(), st.Message()}})
}
