namespace Shop;

public class Order
{
    public void Place() { }
}
