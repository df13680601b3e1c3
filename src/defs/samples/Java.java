package com.example;

import java.util.List;

@Service
public class Repo<T> implements Store {
    private final List<T> items;

    public Repo(List<T> items) {
        this.items = items;
    }

    @Override
    public T find(int id) {
        Runnable r = () -> {
            System.out.println(id);
        };
        return items.get(id);
    }

    static class Node {
        int value;
        void visit() {}
    }

    interface Visitor {
        void accept(Node n);
    }

    enum State { OPEN, CLOSED; boolean isOpen() { return this == OPEN; } }

    record Pair(int a, int b) {
        Pair {
            assert a < b;
        }
    }

    void anon() {
        new Thread(new Runnable() {
            public void run() {
            }
        });
    }
}
