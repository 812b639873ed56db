package episodes

import (
	"bufio"
	"io"
	"strconv"

	"github.com/parquet-go/parquet-go"
)

// jsonLines writes one JSON object per row, with the fields of Row's json tags. It formats the
// numbers itself: an export is millions of floats, and encoding/json's reflection was most
// of its cost.
type jsonLines struct {
	w   *bufio.Writer
	buf []byte
}

// NewJSONLines writes rows to w as JSON lines.
func NewJSONLines(w io.Writer) Writer { return &jsonLines{w: bufio.NewWriterSize(w, 1<<16)} }

func (j *jsonLines) Write(rows []Row) error {
	for i := range rows {
		j.buf = AppendJSON(j.buf[:0], &rows[i])
		j.buf = append(j.buf, '\n')
		if _, err := j.w.Write(j.buf); err != nil {
			return err
		}
	}
	return nil
}

func (j *jsonLines) Close() error { return j.w.Flush() }

// AppendJSON appends r as one JSON object.
func AppendJSON(b []byte, r *Row) []byte {
	b = append(b, `{"match_id":`...)
	b = strconv.AppendQuote(b, r.MatchID)
	b = append(b, `,"game":`...)
	b = strconv.AppendQuote(b, r.Game)
	b = append(b, `,"ply":`...)
	b = strconv.AppendInt(b, int64(r.Ply), 10)
	b = append(b, `,"seat":`...)
	b = strconv.AppendInt(b, int64(r.Seat), 10)
	b = append(b, `,"observation":`...)
	b = appendFloats(b, r.Observation)
	b = append(b, `,"legal_ids":`...)
	b = appendInts(b, r.LegalIDs)
	b = append(b, `,"action_ids":`...)
	b = appendInts(b, r.ActionIDs)
	b = append(b, `,"reward":`...)
	b = strconv.AppendFloat(b, float64(r.Reward), 'g', -1, 32)
	b = append(b, `,"rewards":`...)
	b = appendFloats(b, r.Rewards)
	return append(b, '}')
}

func appendFloats(b []byte, v []float32) []byte {
	b = append(b, '[')
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		if x == 0 {
			b = append(b, '0') // most of a tensor
			continue
		}
		b = strconv.AppendFloat(b, float64(x), 'g', -1, 32)
	}
	return append(b, ']')
}

func appendInts(b []byte, v []int32) []byte {
	b = append(b, '[')
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return append(b, ']')
}

// parquetRows writes rows to one Parquet file, its schema Row's (github.com/parquet-go).
type parquetRows struct{ w *parquet.GenericWriter[Row] }

// NewParquet writes rows to w as Parquet, compressed with zstd; Close writes the footer.
func NewParquet(w io.Writer) Writer {
	return parquetRows{parquet.NewGenericWriter[Row](w, parquet.Compression(&parquet.Zstd))}
}

func (p parquetRows) Write(rows []Row) error {
	_, err := p.w.Write(rows)
	return err
}

func (p parquetRows) Close() error { return p.w.Close() }
