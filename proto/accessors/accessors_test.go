// Package accessors_test checks the protocol's field names against the accessors other
// languages generate from them: a repeated field x makes Java's getXCount() and C++'s
// x_size(), so a field named x_count or x_size beside it clashes. protoc renames Java's pair
// by field number (getLegal5List(), getLegalCount12()); C++ does not compile at all, and a
// C++ client renames the field in its copy of proto/ (names do not travel on the wire).
// docs/clients.md tells both; this test keeps that list complete.
package accessors_test

import (
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	_ "github.com/orrery/orrery/proto/orrery/v1" // registers every orrery .proto file
)

// clashes are the known ones, each written as docs/clients.md writes it: "message.repeated
// / message.other (language)".
var clashes = []string{
	"orrery.pantropia.v1.Player.hand / orrery.pantropia.v1.Player.hand_size (C++)",
	"orrery.v1.Decision.legal / orrery.v1.Decision.legal_count (Java)",
}

func TestAccessors_ClashesAreTheDocumentedOnes(t *testing.T) {
	var got []string
	protoregistry.GlobalFiles.RangeFiles(func(f protoreflect.FileDescriptor) bool {
		if strings.HasPrefix(string(f.Package()), "orrery.") {
			walk(f.Messages(), &got)
		}
		return true
	})
	slices.Sort(got)
	if !slices.Equal(got, clashes) {
		t.Errorf("accessor clashes:\n  %s\nwant (the ones docs/clients.md names):\n  %s\n"+
			"a new field named like a repeated field's count clashes in Java or C++: name it otherwise",
			strings.Join(got, "\n  "), strings.Join(clashes, "\n  "))
	}
}

func walk(msgs protoreflect.MessageDescriptors, got *[]string) {
	for i := range msgs.Len() {
		m := msgs.Get(i)
		fields := m.Fields()
		for j := range fields.Len() {
			f := fields.Get(j)
			if f.Cardinality() != protoreflect.Repeated || f.IsMap() {
				continue
			}
			for suffix, lang := range map[string]string{"_count": "Java", "_size": "C++"} {
				if other := fields.ByName(f.Name() + protoreflect.Name(suffix)); other != nil {
					*got = append(*got, string(f.FullName())+" / "+string(other.FullName())+" ("+lang+")")
				}
			}
		}
		walk(m.Messages(), got)
	}
}
