"""Writes each feature column of a HIGGS parquet shard as a tensor file."""
import sys

import pyarrow.parquet as pq
import torch

from features import column, gpu_batch

table = pq.read_table(sys.argv[1])
torch.save(column(table, "lepton_pT"), "lepton_pT.pt")
torch.save(column(table, "lepton_eta"), "lepton_eta.pt")
torch.save(column(table, "lepton_phi"), "lepton_phi.pt")
torch.save(column(table, "missing_energy_magnitude"), "missing_energy_magnitude.pt")
torch.save(column(table, "missing_energy_phi"), "missing_energy_phi.pt")
torch.save(column(table, "jet1_pt"), "jet1_pt.pt")
torch.save(column(table, "jet1_eta"), "jet1_eta.pt")
torch.save(column(table, "jet1_phi"), "jet1_phi.pt")
torch.save(column(table, "jet1_btag"), "jet1_btag.pt")
torch.save(column(table, "jet2_pt"), "jet2_pt.pt")
torch.save(column(table, "jet2_eta"), "jet2_eta.pt")
torch.save(column(table, "jet2_phi"), "jet2_phi.pt")
torch.save(column(table, "jet2_btag"), "jet2_btag.pt")
torch.save(column(table, "jet3_pt"), "jet3_pt.pt")
torch.save(column(table, "jet3_eta"), "jet3_eta.pt")
torch.save(column(table, "jet3_phi"), "jet3_phi.pt")
torch.save(column(table, "jet3_btag"), "jet3_btag.pt")
torch.save(column(table, "jet4_pt"), "jet4_pt.pt")
torch.save(column(table, "jet4_eta"), "jet4_eta.pt")
torch.save(column(table, "jet4_phi"), "jet4_phi.pt")
torch.save(column(table, "jet4_btag"), "jet4_btag.pt")
torch.save(column(table, "m_jj"), "m_jj.pt")
torch.save(column(table, "m_jjj"), "m_jjj.pt")
torch.save(column(table, "m_lv"), "m_lv.pt")
torch.save(column(table, "m_jlv"), "m_jlv.pt")
torch.save(column(table, "m_bb"), "m_bb.pt")
torch.save(column(table, "m_wbb"), "m_wbb.pt")
torch.save(column(table, "m_wwbb"), "m_wwbb.pt")
torch.save(gpu_batch(table), "batch.pt")
