package model

import "testing"

// TestPlainRead: an attribute read from a GPU object is a possible use
// (it may be an int or a tokenizer), a tensor attribute, a call's result
// and an element are on the object's device, and a library's own attribute
// is not read from an object.
func TestPlainRead(t *testing.T) {
	tests := []struct {
		path string
		want Device
	}{
		{"transformers.AutoModel.from_pretrained().to().config.bos_token_id", DevUnknown},
		{"to()().encoder", DevUnknown},
		{"torch.nn.Linear().cuda().weight", DevCUDA},
		{"torch.randn().cuda().T", DevCUDA},
		{"torch.randn().cuda().float()", DevCUDA},
		{"torch.randn().cuda()[]", DevCUDA},
		{"torch.randn().cuda()", DevCUDA},
		{"cupy.cuda.Stream.null", DevCUDA},
	}
	for _, tt := range tests {
		if got := held(Value{Kind: VPath, Path: tt.path, Dev: DevCUDA}); got != tt.want {
			t.Errorf("held(%s on the GPU) = %v, want %v", tt.path, got, tt.want)
		}
	}
}
