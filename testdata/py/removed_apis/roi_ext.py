"""The Python side of a C extension built with torch.utils.ffi (torch 0.4)."""
from torch.utils.ffi import _wrap_function


def roi_pooling(features, rois):
    return features[:, :, : rois.shape[0]]
