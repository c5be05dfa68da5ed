package drvledgerfixed

import (
	"errors"
	"testing"
)

func TestWithdraw(t *testing.T) {
	l := NewLedger()
	l.Deposit(10)
	if err := l.Withdraw(7); err != nil {
		t.Fatalf("first withdrawal: %v", err)
	}
	if err := l.Withdraw(7); !errors.Is(err, ErrFunds) {
		t.Fatalf("second withdrawal: %v, want ErrFunds", err)
	}
	if got := l.Balance(); got != 3 {
		t.Errorf("balance %d, want 3", got)
	}
}
