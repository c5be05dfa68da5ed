package bigcopyfirstfixed

// Pixel is one point of a frame.
type Pixel struct{ Lum, Alpha int }

// A Frame is 32×32 tiles of 16×32 pixels, 8 MB.
type (
	Tile  [16][32]Pixel
	Frame [32][32]Tile
)

// Redraw marks the cursor on the front frame from a goroutine and shows
// the back frame (a copy over the front one) once the mark is done.
func Redraw() {
	var front, back Frame
	done := make(chan bool, 1)
	go func() {
		front[20][9][5][3].Lum = 1
		done <- true
	}()
	<-done
	front = back
}
