package ledger

import (
	"errors"
	"testing"
)

func TestWithdraw(t *testing.T) {
	l := NewLedger(100)
	if err := l.Withdraw(30); err != nil {
		t.Fatalf("first withdrawal: %v", err)
	}
	if err := l.Withdraw(50); err != nil {
		t.Fatalf("second withdrawal: %v", err)
	}
	if err := l.Withdraw(30); !errors.Is(err, ErrInsufficient) {
		t.Fatalf("third withdrawal: %v, want ErrInsufficient", err)
	}
	if got := l.Balance(); got != 20 {
		t.Errorf("balance %d, want 20", got)
	}
}
