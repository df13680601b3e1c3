defmodule Shop.Cart do
  @moduledoc """
  A cart. Example:

      defmodule NotReal do
      end
  """

  @max_items 50
  @type item :: {String.t(), pos_integer()}

  defstruct items: [], owner: nil

  def new(owner), do: %__MODULE__{owner: owner}

  def add(%__MODULE__{} = cart, item) when is_tuple(item) do
    helper = fn x -> x end
    %{cart | items: [helper.(item) | cart.items]}
  end

  def add(cart, _item), do: cart

  defp count(cart) do
    length(cart.items)
  end

  defmacro is_full(cart) do
    quote do: count(unquote(cart)) >= @max_items
  end

  defmodule Line do
    defstruct [:sku, :qty]

    def total(line), do: line.qty
  end
end

defprotocol Shop.Priced do
  def price(thing)
end

defimpl Shop.Priced, for: Shop.Cart do
  def price(cart), do: length(cart.items)
end

defmodule Shop.Util do
  defdelegate size(cart), to: Shop.Cart, as: :count
  defguard is_small(n) when n < 10
  def zero, do: 0
end
