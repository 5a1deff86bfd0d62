package model

import (
	"testing"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// TestReadRaises holds which attribute reads certainly raise
// AttributeError: a builtin value without the attribute, evaluated where
// the expression certainly runs; never a dict subclass, an instance, a
// value the model cannot see, one of several kinds, or a value whose
// type the model may have narrowed (Value.Loose).
func TestReadRaises(t *testing.T) {
	tests := []struct {
		src  string // the last line is the expression
		want bool
	}{
		{"cfg = {'bs': 8}\ncfg.gradient_checkpointing", true},
		{"cfg = {'bs': 8}\ncfg.get('bs')", false},
		{"cfg = {'bs': 8}\ncfg.items()", false},
		{"cfg = {'bs': 8}\ncfg.__class__", false},
		{"cfg = dict(bs=8)\ncfg.bs", true},
		{"cfg = {k: 1 for k in ks}\ncfg.bs", true},
		{"import json\ncfg = json.load(f)\ncfg.zero_optimization", true},
		{"import json\ncfg = json.loads(s)\ncfg.split(',')", false},
		{"import json\ncfg = json.loads(s)\ncfg.get('a')", false},
		{"from easydict import EasyDict\ncfg = EasyDict({'bs': 8})\ncfg.bs", false},
		{"from omegaconf import OmegaConf\ncfg = OmegaConf.create({'bs': 8})\ncfg.bs", false},
		{"class Config:\n    bs = 8\ncfg = Config()\ncfg.bs", false},
		{"class Config:\n    pass\ncfg = Config()\ncfg.bs", false},
		{"cfg = load_config()\ncfg.bs", false},
		{"from easydict import EasyDict\ncfg = {} if fast else EasyDict()\ncfg.bs", false},
		{"from easydict import EasyDict\ncfg = {} if fast else EasyDict()\nholder = {'cfg': cfg}\nholder['cfg'].bs", false},
		{"cfg = {}\nfast and cfg.bs", false},
		{"cfg = {}\ncfg.bs if fast else 8", false},
		{"cfg = {}\n(lambda: cfg.bs)", false},
		{"cfg = {}\n[cfg.bs for _ in xs]", false},
		{"cfg = {}\nprint(cfg.bs)", true},
		{"cfg = {}\nf'{cfg.bs}'", true},
		{"cfg = {}\nxs[cfg.bs]", true},
		{"name = 'resnet'\nname.upper()", false},
		{"name = 'resnet'\nname.depth", true},
		{"n = 4\nn.real", false},
		{"n = 4\nn.is_integer()", false},
		{"n = 4\nn.workers", true},
		{"flag = True\nflag.bit_length()", false},
		{"v = None\nv.workers", true},
		{"xs = [1, 2]\nxs.append(3)", false},
		{"xs = (1, 2)\nxs.count(1)", false},
		{"xs = [1, 2]\nxs.shape", true},
		{"from enum import Enum\nclass Mode(Enum):\n    TRAIN = 'train'\nMode.TRAIN.value", false},
		{"class Defaults:\n    opts = {}\nDefaults.opts.lr", false},
	}
	for _, tt := range tests {
		m := load(t, memSource{"/p/m.py": tt.src}, "/p/m.py")
		last, ok := m.File.Body[len(m.File.Body)-1].(*syntax.ExprStmt)
		if !ok {
			t.Fatalf("last statement of\n%s", tt.src)
		}
		var ev evaluator
		if got := ev.readRaises(last.X, m.Scope); got != tt.want {
			t.Errorf("%s\nreadRaises = %v, want %v", tt.src, got, tt.want)
		}
	}
}

// TestMayConvertStores holds which classes may hold something other than
// what their methods store: a library base other than nn.Module (EasyDict
// turns a stored dict into an EasyDict), __setattr__, a metaclass.
func TestMayConvertStores(t *testing.T) {
	tests := []struct {
		src  string
		want bool
	}{
		{"class C:\n    pass", false},
		{"class C(object):\n    pass", false},
		{"import torch.nn as nn\nclass C(nn.Module):\n    pass", false},
		{"import torch.nn as nn\nclass B(nn.Module):\n    pass\nclass C(B):\n    pass", false},
		{"from easydict import EasyDict\nclass C(EasyDict):\n    pass", true},
		{"from easydict import EasyDict\nclass B(EasyDict):\n    pass\nclass C(B):\n    pass", true},
		{"class C:\n    def __setattr__(self, k, v):\n        pass", true},
		{"class C(metaclass=Meta):\n    pass", true},
	}
	for _, tt := range tests {
		m := load(t, memSource{"/p/m.py": tt.src}, "/p/m.py")
		var c *Class
		for _, k := range m.Classes {
			if k.Name == "C" {
				c = k
			}
		}
		if c == nil {
			t.Fatalf("no class C in\n%s", tt.src)
		}
		var ev evaluator
		if got := ev.mayConvertStores(c); got != tt.want {
			t.Errorf("%s\nmayConvertStores = %v, want %v", tt.src, got, tt.want)
		}
	}
}
