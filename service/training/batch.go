// Package training serves TrainingService: batches of environments that a reinforcement-
// learning trainer steps as tensors and action ids (docs/training.md). Each environment plays
// one match after another in process, the trainer's seats answered by the stream and the
// others by built-in bots; a step of N environments is one message each way.
package training

import (
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math"
	"unsafe"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// MaxEnvironments bounds one batch: a step's message holds every environment's tensor.
const MaxEnvironments = 4096

// ErrIllegal wraps a step whose action is not legal in its environment: the request is well
// formed but not allowed in this state.
var ErrIllegal = errors.New("illegal action")

// errMalformed wraps a step whose message is malformed whatever the state.
var errMalformed = errors.New("malformed step")

// Batch is the environments of one Train stream, stepped together. It is not safe for
// concurrent use.
type Batch struct {
	game       string
	seats      int
	options    map[string]string
	controlled []bool   // by seat
	opponents  []string // by seat, for the seats not controlled
	iterations int
	maxSteps   int
	sparse     bool // results carry only the nonzero elements of the tensors
	tz         engine.Tensors
	heads      []int
	size       int // floats per observation

	envs []env
	// The results of the last step, in the memory of the one before: a step's message is
	// sent before the next step starts.
	obs        []float32
	values     []float32 // sparse: the nonzero elements of obs, and their indices
	indices    []int32
	nonzeros   []int32
	seatIDs    []int32
	legalIDs   []int32
	counts     []int32
	rewards    []float32
	terminated []byte
	truncated  []byte
	seeds      []uint64
	steps      []int32
	out        outcome
	ids        []int32 // one environment's action ids
}

// Open validates req and starts its environments.
func Open(req *orreryv1.OpenEnvironments) (*Batch, error) {
	n := len(req.GetSeeds())
	if n == 0 || n > MaxEnvironments {
		return nil, fmt.Errorf("want 1 to %d seeds, one per environment; got %d", MaxEnvironments, n)
	}
	g, err := engine.Lookup(req.GetGame())
	if err != nil {
		return nil, err
	}
	info := g.Info()
	seats := int(req.GetSeats())
	if seats < info.MinSeats || seats > info.MaxSeats {
		return nil, fmt.Errorf("%s takes %d to %d seats, not %d", info.Name, info.MinSeats, info.MaxSeats, seats)
	}
	b := &Batch{
		game: info.Name, seats: seats, options: maps.Clone(req.GetOptions()),
		controlled: make([]bool, seats), opponents: make([]string, seats),
		iterations: int(req.GetMctsIterations()), maxSteps: int(req.GetMaxEpisodeSteps()),
		sparse: req.GetObservationEncoding() == orreryv1.ObservationEncoding_OBSERVATION_ENCODING_SPARSE,
	}
	switch req.GetObservationEncoding() {
	case orreryv1.ObservationEncoding_OBSERVATION_ENCODING_UNSPECIFIED, orreryv1.ObservationEncoding_OBSERVATION_ENCODING_SPARSE:
	default:
		return nil, fmt.Errorf("unknown observation encoding %v", req.GetObservationEncoding())
	}
	if b.iterations <= 0 {
		b.iterations = defaultIterations
	}
	if b.maxSteps < 0 {
		return nil, fmt.Errorf("max_episode_steps %d is negative", b.maxSteps)
	}
	tz, ok, err := engine.TensorsOf(b.game, engine.Config{Seats: seats, Options: b.options})
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%s has no tensors", b.game)
	}
	b.tz, b.heads, b.size = tz, tz.Heads(), engine.ObservationSize(tz)
	if err := b.seatPlayers(req.GetControlledSeats(), req.GetOpponents()); err != nil {
		return nil, err
	}
	b.envs = make([]env, n)
	b.obs = make([]float32, n*b.size)
	b.seatIDs, b.counts, b.steps, b.nonzeros = make([]int32, n), make([]int32, n), make([]int32, n), make([]int32, n)
	b.rewards = make([]float32, n*seats)
	b.terminated, b.truncated, b.seeds = make([]byte, n), make([]byte, n), make([]uint64, n)
	b.out.rewards = make([]float32, seats)
	b.ids = make([]int32, len(b.heads))
	for i, seed := range req.GetSeeds() {
		b.envs[i].b = b
		if err := b.envs[i].start(seed); err != nil {
			return nil, fmt.Errorf("environment %d: %w", i, err)
		}
	}
	b.collect()
	return b, nil
}

// seatPlayers sets who plays each seat: the trainer's seats, and an opponent for the others.
func (b *Batch) seatPlayers(controlled []int32, opponents []string) error {
	for _, s := range controlled {
		if s < 0 || int(s) >= b.seats {
			return fmt.Errorf("controlled seat %d out of 0..%d", s, b.seats-1)
		}
		b.controlled[s] = true
	}
	if len(controlled) == 0 {
		for s := range b.controlled {
			b.controlled[s] = true
		}
	}
	var others []int
	for s, c := range b.controlled {
		if !c {
			others = append(others, s)
		}
	}
	switch {
	case len(opponents) > 1 && len(opponents) != len(others):
		return fmt.Errorf("%d opponents for %d seats the trainer does not play: name one, or one per seat", len(opponents), len(others))
	case len(others) == 0 && len(opponents) > 0:
		return fmt.Errorf("the trainer plays every seat: no opponent to name")
	}
	for i, s := range others {
		name := "random"
		switch {
		case len(opponents) == 1:
			name = opponents[0]
		case len(opponents) > 1:
			name = opponents[i]
		}
		if _, err := newOpponent(b.game, name, 1, 1); err != nil {
			return err
		}
		b.opponents[s] = name
	}
	return nil
}

// Spec is the batch's layout with its first results.
func (b *Batch) Spec() *orreryv1.EnvironmentSpec {
	sp := &orreryv1.EnvironmentSpec{Environments: int32(len(b.envs)), Seats: int32(b.seats), First: b.Results()}
	for _, d := range b.tz.ObservationShape() {
		sp.ObservationShape = append(sp.ObservationShape, int32(d))
	}
	for _, h := range b.heads {
		sp.ActionHeads = append(sp.ActionHeads, int32(h))
	}
	if d, ok := b.tz.(engine.Described); ok {
		for _, s := range d.ObservationLayout() {
			ts := &orreryv1.TensorSlice{Name: s.Name, Offset: int32(s.Offset)}
			for _, x := range s.Shape {
				ts.Shape = append(ts.Shape, int32(x))
			}
			sp.Slices = append(sp.Slices, ts)
		}
	}
	return sp
}

// Step plays one action in every environment: actionIDs is little-endian int32, each
// environment's id per head in turn. On an error the batch is unusable: the stream ends.
func (b *Batch) Step(actionIDs []byte) error {
	h := len(b.heads)
	if len(actionIDs) != 4*h*len(b.envs) {
		return fmt.Errorf("%w: action_ids has %d bytes, want %d (%d environments x %d heads x 4)", errMalformed, len(actionIDs), 4*h*len(b.envs), len(b.envs), h)
	}
	clear(b.rewards)
	for i := range b.envs {
		for k := range h {
			b.ids[k] = int32(binary.LittleEndian.Uint32(actionIDs[4*(i*h+k):]))
		}
		e := &b.envs[i]
		if err := e.step(b.ids, &b.out); err != nil {
			return fmt.Errorf("environment %d: %w", i, err)
		}
		b.terminated[i], b.truncated[i], b.steps[i] = bit(b.out.terminated), bit(b.out.truncated), int32(e.steps)
		if b.out.terminated || b.out.truncated {
			b.steps[i] = int32(b.out.steps)
		}
		if b.out.terminated {
			copy(b.rewards[i*b.seats:], b.out.rewards)
		}
	}
	b.collect()
	return nil
}

func bit(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// collect encodes every environment's next decision into the result buffers.
func (b *Batch) collect() {
	b.legalIDs, b.values, b.indices = b.legalIDs[:0], b.values[:0], b.indices[:0]
	for i := range b.envs {
		e := &b.envs[i]
		tensor := b.obs[i*b.size : (i+1)*b.size]
		// A legal decision always encodes: Encode fails only on another game's message.
		if err := b.tz.Encode(e.obs, tensor); err != nil {
			panic(fmt.Sprintf("training: %s: %v", b.game, err))
		}
		if b.sparse {
			before := len(b.values)
			b.values, b.indices = appendNonzero(b.values, b.indices, tensor)
			b.nonzeros[i] = int32(len(b.values) - before)
		}
		b.seatIDs[i], b.counts[i], b.seeds[i] = int32(e.seat), int32(len(e.legal)), e.seed
		b.legalIDs = append(b.legalIDs, e.ids...)
	}
}

// appendNonzero appends the nonzero elements of tensor and their indices. It tests eight
// elements at a time, branch-free: most runs are zeros (one-hot codes over empty slots), and
// skipping them is most of the scan.
func appendNonzero(values []float32, indices []int32, tensor []float32) ([]float32, []int32) {
	k := 0
	for ; k+8 <= len(tensor); k += 8 {
		c := (*[8]float32)(tensor[k : k+8])
		if math.Float32bits(c[0])|math.Float32bits(c[1])|math.Float32bits(c[2])|math.Float32bits(c[3])|
			math.Float32bits(c[4])|math.Float32bits(c[5])|math.Float32bits(c[6])|math.Float32bits(c[7]) == 0 {
			continue
		}
		for j, v := range c {
			if v != 0 {
				values, indices = append(values, v), append(indices, int32(k+j))
			}
		}
	}
	for ; k < len(tensor); k++ {
		if tensor[k] != 0 {
			values, indices = append(values, tensor[k]), append(indices, int32(k))
		}
	}
	return values, indices
}

// Results is the last step's results. Its byte fields are the batch's memory: the message
// must be sent (or copied) before the next Step.
func (b *Batch) Results() *orreryv1.StepResults {
	r := b.results()
	if b.sparse {
		r.Observations, r.ObservationIndices, r.ObservationNonzeros = float32Bytes(b.values), int32Bytes(b.indices), b.nonzeros
	}
	return r
}

func (b *Batch) results() *orreryv1.StepResults {
	return &orreryv1.StepResults{
		Observations: float32Bytes(b.obs),
		Seats:        b.seatIDs,
		LegalIds:     int32Bytes(b.legalIDs),
		LegalCounts:  b.counts,
		Rewards:      float32Bytes(b.rewards),
		Terminated:   b.terminated,
		Truncated:    b.truncated,
		EpisodeSeeds: b.seeds,
		EpisodeSteps: b.steps,
	}
}

// littleEndian is true on the machines Orrery runs on (amd64, arm64): there the wire's
// little-endian values are the slices' own memory.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

func float32Bytes(f []float32) []byte {
	if len(f) == 0 {
		return nil
	}
	if littleEndian {
		return unsafe.Slice((*byte)(unsafe.Pointer(&f[0])), 4*len(f))
	}
	out := make([]byte, 0, 4*len(f))
	for _, v := range f {
		out = binary.LittleEndian.AppendUint32(out, math.Float32bits(v))
	}
	return out
}

func int32Bytes(v []int32) []byte {
	if len(v) == 0 {
		return nil
	}
	if littleEndian {
		return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), 4*len(v))
	}
	out := make([]byte, 0, 4*len(v))
	for _, x := range v {
		out = binary.LittleEndian.AppendUint32(out, uint32(x))
	}
	return out
}
