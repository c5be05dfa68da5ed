//go:build !purego

#include "textflag.h"

// func getg() unsafe.Pointer
//
// The current goroutine's runtime g, from thread-local storage (the same
// instruction sequence the runtime's getg compiles to).
TEXT ·getg(SB),NOSPLIT,$0-8
	MOVQ (TLS), AX
	MOVQ AX, ret+0(FP)
	RET
