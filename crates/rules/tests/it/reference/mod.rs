pub mod oanquan2;
