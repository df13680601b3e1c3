{-# LANGUAGE OverloadedStrings #-}
module Data.Shape
  ( Shape (..)
  , area
  ) where

import qualified Data.Map as Map

-- | A shape.
data Shape
  = Circle Double
  | Rect { width :: Double, height :: Double }
  deriving (Show, Eq)

newtype Name = Name String

type Registry = Map.Map Name Shape

maxSize :: Int
maxSize = 100

area :: Shape -> Double
area (Circle r) = pi * r * r
area (Rect w h) = w * h
  where
    helper = w

class Describe a where
  describe :: a -> String
  describe _ = "thing"

instance Describe Shape where
  describe (Circle _) = "circle"
  describe _ = "rect"

scale :: Double -> Shape -> Shape
scale k s
  | k > 0 = s
  | otherwise = s

(<+>) :: Shape -> Shape -> Double
a <+> b = area a + area b
