package notebook

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
)

// benchNotebook is a notebook shaped like the ones tutorials ship: code
// cells of a dozen lines, each with printed output and a plot, and prose
// between them. Most of its bytes, and most of its JSON values, are
// outputs.
func benchNotebook(b *testing.B) []byte {
	png := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("\x89PNG plot bytes ", 1200)))
	var cells []map[string]any
	for i := range 60 {
		var src, out []string
		for j := range 12 {
			src = append(src, fmt.Sprintf("loss_%d = model(batch[%d]).mean()  # step %d\n", j, j, i))
		}
		for j := range 40 {
			out = append(out, fmt.Sprintf("epoch %d step %d: loss 0.%04d\n", i, j, j*37))
		}
		c := code(src...)
		c["outputs"] = []any{
			map[string]any{"name": "stdout", "output_type": "stream", "text": out},
			map[string]any{"output_type": "display_data", "metadata": map[string]any{},
				"data": map[string]any{"image/png": png, "text/plain": []string{"<Figure size 640x480 with 1 Axes>"}}},
		}
		cells = append(cells, markdown(fmt.Sprintf("## Step %d\n\nTrain for one more epoch.", i)), c)
	}
	return nbJSON(b, "python", cells...)
}

func BenchmarkParse(b *testing.B) {
	src := benchNotebook(b)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(src); err != nil {
			b.Fatal(err)
		}
	}
}
