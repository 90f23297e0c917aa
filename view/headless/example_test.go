package headless_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/collide3d/collide/view/headless"
)

// Render a page to PNG once its script says it is ready, as
// `collide view --snapshot` does.
func Example() {
	path, err := headless.Find()
	if err != nil {
		log.Fatal(err) // headless.ErrNoBrowser: install chromium
	}
	b, err := headless.Start(context.Background(), path, headless.Options{Width: 800, Height: 600})
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()

	if err := b.Navigate("http://127.0.0.1:8080/"); err != nil {
		log.Fatal(err)
	}
	// The error of a page that never gets ready names its exceptions.
	if err := b.Wait("window.ready === true", 30*time.Second); err != nil {
		log.Fatal(err)
	}
	var title string
	if err := b.Eval("document.title", &title); err != nil {
		log.Fatal(err)
	}
	png, err := b.Screenshot()
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("snapshot.png", png, 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %d bytes of PNG\n", title, len(png))
}
