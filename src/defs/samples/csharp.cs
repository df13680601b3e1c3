using System;

namespace Shop.Core
{
    [Serializable]
    public class Cart : IDisposable
    {
        public int Count { get; set; }

        public Cart()
        {
        }

        public void Add(Item item)
        {
            Func<int, int> f = x =>
            {
                return x + 1;
            };
            int Local(int y) => y * 2;
        }

        public static Cart operator +(Cart a, Cart b) => a;

        ~Cart() { }

        private class Node
        {
            public void Visit() { }
        }
    }

    public interface IStore
    {
        void Save();
    }

    public struct Point { public int X; }

    public enum Color { Red, Green }

    public record Person(string Name);

    public delegate void Handler(int x);
}
