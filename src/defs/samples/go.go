package server

import "fmt"

const MaxConns = 10

const (
	A = 1
	B = 2
)

type Server struct {
	addr string
}

type Handler interface {
	Serve(req string) error
}

type ID int

type List[T any] struct {
	items []T
}

func New(addr string) *Server {
	f := func() int {
		return 1
	}
	_ = f
	return &Server{addr: addr}
}

func (s *Server) Handle(req string) error {
	fmt.Println(req)
	return nil
}

func (s Server) Addr() string { return s.addr }

func (l *List[T]) Push(v T) {
	l.items = append(l.items, v)
}

func (l List[T]) Len() int {
	return len(l.items)
}
