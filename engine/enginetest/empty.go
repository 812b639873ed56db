package enginetest

import "google.golang.org/protobuf/types/known/emptypb"

// emptyMessage is a protobuf message no game uses as its Action.
type emptyMessage = emptypb.Empty
