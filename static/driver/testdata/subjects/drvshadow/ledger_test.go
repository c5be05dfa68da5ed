package drvshadow

import (
	"errors"
	"testing"
)

func TestWithdraw(t *testing.T) {
	ledger := NewLedger()
	ledger.Deposit(10)
	if err := ledger.Withdraw(7); err != nil {
		t.Fatalf("first withdrawal: %v", err)
	}
	if err := ledger.Withdraw(7); !errors.Is(err, ErrFunds) {
		t.Fatalf("second withdrawal: %v, want ErrFunds", err)
	}
	if got := ledger.Balance(); got != 3 {
		t.Errorf("balance %d, want 3", got)
	}
}
