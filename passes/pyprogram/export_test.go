package pyprogram

// WithoutCUDAOracle runs fn with the CUDA oracle off (cudaoracle.go).
func WithoutCUDAOracle(fn func()) {
	useCUDAOracle = false
	defer func() { useCUDAOracle = true }()
	fn()
}
